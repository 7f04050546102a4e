import { describe, expect, it } from 'vitest';
import {
  closeAllHints,
  closeMetaTip,
  closeReportHint,
  countView,
  hintStateOf,
  metaTipOf,
  NO_HINTS_HIDDEN,
  openReportHint,
  reportHintShown,
  storedHints,
  type HintState,
} from './hints.js';

const viewed = (n: number, state = NO_HINTS_HIDDEN): HintState => Array.from({ length: n }).reduce<HintState>((s) => countView(s), state);

describe('report hints (spec 001 §2 "Hints")', () => {
  it('shows a report hint until it is closed for that report, or for all', () => {
    const closed = closeReportHint(NO_HINTS_HIDDEN, 'geo');
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

  it('counts views up to the tips’ limit only: past it the state no longer changes', () => {
    expect(viewed(3).views).toBe(3);
    const atLimit = viewed(3);
    // The same object: nothing to write.
    expect(countView(atLimit)).toBe(atLimit);
    expect(viewed(50).views).toBe(3);
  });

  it('reads a damaged or foreign stored value as nothing hidden', () => {
    expect(hintStateOf({ all: 'yes', reports: [1, 'geo', 'Geo; drop', 'geo'], tips: ['reportCsv', 'bogus'], views: -2 })).toEqual({
      all: false,
      reports: ['geo'],
      tips: ['reportCsv'],
      views: 0,
    });
    expect(hintStateOf('not an object')).toEqual(NO_HINTS_HIDDEN);
    expect(hintStateOf(null)).toEqual(NO_HINTS_HIDDEN);
    expect(hintStateOf([])).toEqual(NO_HINTS_HIDDEN);
    expect(hintStateOf({ views: 2.5 }).views).toBe(0);
    expect(hintStateOf({ views: 1e9 }).views).toBe(3);
  });

  it('keeps the server’s form as the spec’s metaTips flags beside the rest, and reads it back unchanged', () => {
    const state: HintState = { all: true, reports: ['geo', 'summary'], tips: ['reportGraph', 'reportCsv'], views: 2 };
    const stored = storedHints(state);
    expect(stored).toEqual({
      reportFilter: false,
      reportGraph: true,
      reportSettings: false,
      reportViews: false,
      reportAdditional: false,
      reportCsv: true,
      all: true,
      reports: ['geo', 'summary'],
      views: 2,
    });
    expect(hintStateOf(stored)).toEqual(state);
    // A row written before hints were kept on the server: the flags alone.
    expect(hintStateOf({ reportCsv: true })).toEqual({ ...NO_HINTS_HIDDEN, tips: ['reportCsv'] });
  });
});
