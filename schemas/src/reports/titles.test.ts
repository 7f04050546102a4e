import { describe, expect, it } from 'vitest';
import { REPORT_DEFINITIONS } from './index.js';
import { dimensionConstructorTitle, dimensionFilterTitle, dimensionTitle, drilldownHeader, reportHeader } from './titles.js';

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

describe('a dimension out of its report', () => {
  it('goes by its column title where that is clear', () => {
    for (const title of [dimensionFilterTitle, dimensionConstructorTitle]) expect(title('geo_country')).toBe('Страна');
  });

  it('goes by a longer name in the filter menu and the constructor where its column title is ambiguous', () => {
    expect(dimensionTitle('browser_version_major')).toBe('Версия');
    expect(dimensionFilterTitle('browser_version_major')).toBe('Версия браузера');
    expect(dimensionConstructorTitle('os_version_major')).toBe('Версия ОС');
  });

  it('keeps the names each list gave alone', () => {
    expect(dimensionFilterTitle('openstat_campaign')).toBe('Кампания Openstat');
    expect(dimensionConstructorTitle('openstat_campaign')).toBe('Кампания');
    expect(dimensionConstructorTitle('browser_version_minor')).toBe('Минорная версия браузера');
    expect(dimensionFilterTitle('browser_version_minor')).toBe('Минорная версия');
  });

  it('a dimension without a title goes by its name; the URL tree\'s deeper levels by their number', () => {
    expect(dimensionFilterTitle('split')).toBe('split');
    expect(dimensionConstructorTitle('url_section_3')).toBe('Раздел сайта, уровень 3');
  });
});
