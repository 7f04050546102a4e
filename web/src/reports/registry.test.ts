import { describe, expect, it } from 'vitest';
import { REPORT_DEFINITIONS } from '@stat/schemas/reports';
import { REPORT_MENU } from '../app/menu';
import { openableReport, PLANNED_REPORTS, reportHint, reportViewModule } from './registry';

const definitions = Object.values(REPORT_DEFINITIONS);

describe('report registry', () => {
  it('opens every shared definition: the time-series view without a drill-down, the dimension view otherwise', async () => {
    const summaryView = (await reportViewModule(REPORT_DEFINITIONS.summary!)).default;
    for (const d of definitions) {
      expect(openableReport(d.name)).toBe(d);
      expect((await reportViewModule(d)).default === summaryView).toBe(d.drilldown.length === 0);
    }
    expect(openableReport('nope')).toBeUndefined();
    expect(openableReport('__proto__')).toBeUndefined();
  });
  it('has a hint for every report', () => {
    for (const d of definitions) expect(reportHint(d.name), d.name).toBeTruthy();
  });
  it('plans only names that no definition answers', () => {
    for (const name of PLANNED_REPORTS) expect(openableReport(name)).toBeUndefined();
  });
  it('lists every base report of spec 001 §2 in the menu, titled as defined', () => {
    const items = REPORT_MENU.flatMap((g) => g.items);
    const spec = ['summary', 'view_depth', 'visit_time', 'geo', 'sex', 'age', 'segments', 'device', 'browser', 'os', 'screensize', 'page_formats', 'traffic_sources', 'ad_systems', 'utms', 'openstat', 'sites', 'search_system_phrase', 'search_phrase_system', 'aggrnews_system', 'exchange_system', 'recom_system', 'social_network', 'message_system', 'qr_system', 'page_urls', 'entrance_pages', 'exit_pages', 'page_titles', 'page_args', 'custom_vars', 'usability', 'likes'];
    for (const name of spec) {
      const item = items.find((i) => i.report === name);
      expect(item?.to, name).toBe(`new/report/${name}`);
      expect(item?.label).toBe(REPORT_DEFINITIONS[name]?.title);
    }
  });
});
