// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { closeAllHints, closeMetaTip, closeReportHint, countView, metaTipOf, openReportHint, readHints, reportHintShown, type HintState } from './hints';

const fresh: HintState = { all: false, reports: [], tips: [], views: 0 };
const viewed = (n: number, state = fresh): HintState => Array.from({ length: n }).reduce<HintState>((s) => countView(s), state);

describe('report hints (spec 001 §2 "Hints")', () => {
  it('shows a report hint until it is closed for that report, or for all', () => {
    const closed = closeReportHint(fresh, 'geo');
    expect([reportHintShown(closed, 'geo'), reportHintShown(closed, 'summary')]).toEqual([false, true]);
    const all = closeAllHints(closed);
    expect([reportHintShown(all, 'geo'), reportHintShown(all, 'summary')]).toEqual([false, false]);
    // «?» at the title brings one report's hint back.
    expect([reportHintShown(openReportHint(all, 'geo'), 'geo'), reportHintShown(openReportHint(all, 'geo'), 'summary')]).toEqual([true, true]);
  });

  it('offers the first meta tip of the report not closed yet, on the first three report views only', () => {
    const offered = ['reportGraph', 'reportSettings', 'reportCsv'] as const;
    // `views`: the report pages opened before this one.
    expect(metaTipOf(viewed(0), offered)).toBe('reportGraph');
    expect(metaTipOf(closeMetaTip(viewed(1), 'reportGraph'), offered)).toBe('reportSettings');
    expect(metaTipOf(viewed(2), offered)).toBe('reportGraph');
    expect(metaTipOf(viewed(3), offered)).toBeNull();
    expect(metaTipOf(closeAllHints(viewed(1)), offered)).toBeNull();
    expect(metaTipOf(viewed(1), [])).toBeNull();
  });

  it('reads a damaged or foreign stored value as nothing hidden', () => {
    localStorage.setItem('h1', '{"all":"yes","reports":[1,"geo"],"tips":["reportCsv","bogus"],"views":-2}');
    expect(readHints('h1')).toEqual({ all: false, reports: ['geo'], tips: ['reportCsv'], views: 0 });
    localStorage.setItem('h2', 'not json');
    expect(readHints('h2')).toEqual(fresh);
    expect(readHints('missing')).toEqual(fresh);
  });
});
