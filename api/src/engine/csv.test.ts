import { describe, expect, it } from 'vitest';
import { METRIC_INFO } from '@stat/schemas';
import { csvDisposition, csvLine, csvMetricTitle, csvNumber } from './csv.js';

describe('the report CSV', () => {
  it('separates by semicolons, ends lines with CRLF, writes decimals with a comma', () => {
    expect(csvLine(['Прямые заходы', 1234567, 66.67, 0])).toBe('Прямые заходы;1234567;66,67;0\r\n');
  });

  it('quotes a field holding a separator, a quote, a line break or edge spaces, doubling quotes', () => {
    expect(csvLine(['a;b', 'say "hi"', 'two\nlines', ' padded'])).toBe('"a;b";"say ""hi""";"two\nlines";" padded"\r\n');
  });

  it('keeps text that a spreadsheet would run as a formula as text', () => {
    expect(csvLine(['=HYPERLINK("http://x")', '+7 900', '-1', '@SUM(A1)'])).toBe(`"'=HYPERLINK(""http://x"")";'+7 900;'-1;'@SUM(A1)\r\n`);
  });

  it('keeps as text a formula after a carriage return, a line break or blanks, which spreadsheets trim on import', () => {
    expect(csvLine(['\r=1+1', '\n=1+1', ' =1+1', '\u00a0@SUM(A1)'])).toBe(`"'\r=1+1";"'\n=1+1";' =1+1;'\u00a0@SUM(A1)\r\n`);
  });

  it('keeps as text a formula of full-width signs', () => {
    expect(csvLine(['\uff1d1+1', '\uff0b7 900'])).toBe(`'\uff1d1+1;'\uff0b7 900\r\n`);
  });

  it('writes numbers that are not finite as empty fields', () => {
    expect(csvNumber(Number.NaN)).toBe('');
  });

  it('names the file by the report title and its period, with an ASCII fallback', () => {
    expect(csvDisposition('geo', 'География', '2026-11-01', '2026-11-10')).toBe(
      `attachment; filename="geo_2026-11-01_2026-11-10.csv"; filename*=UTF-8''${encodeURIComponent('География 2026-11-01 — 2026-11-10.csv')}`,
    );
    expect(csvDisposition('geo', 'География', '2026-11-01', '2026-11-01')).toContain(encodeURIComponent('География 2026-11-01.csv'));
  });

  it('titles a metric\'s column with its unit where the number alone does not say it', () => {
    expect((['visits', 'bounces', 'avg_sessions_duration', 'avg_view_depth'] as const).map((m) => csvMetricTitle(METRIC_INFO[m]))).toEqual(['Визиты', 'Отказы, %', 'Время на сайте, с', 'Глубина просмотра']);
  });
});
