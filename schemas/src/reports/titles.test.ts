import { describe, expect, it } from 'vitest';
import { REPORT_DEFINITIONS } from './index.js';
import { drilldownHeader, reportHeader } from './titles.js';

describe('the first column of a report', () => {
  it('is headed by what its rows are, never by a column\'s name (UTM tags are read by their names), and the rating\'s rows are sites', () => {
    expect(drilldownHeader(REPORT_DEFINITIONS.rating!.drilldown)).toBe('Сайт');
    for (const report of Object.values(REPORT_DEFINITIONS)) {
      if (report.drilldown.length === 0) continue;
      expect(drilldownHeader(report.drilldown).replace(/\butm_[a-z]+/g, ''), report.name).not.toMatch(/[a-z]_[a-z]/);
    }
  });

  it('of the media reports is headed as the spec names it', () => {
    expect(reportHeader(REPORT_DEFINITIONS.materials_summary!)).toBe('Название материала, URL');
    expect(reportHeader(REPORT_DEFINITIONS.authors_summary!)).toBe('Автор');
    expect(reportHeader(REPORT_DEFINITIONS.page_urls!)).toBe('Адрес без параметров / Адрес страницы');
  });
});
