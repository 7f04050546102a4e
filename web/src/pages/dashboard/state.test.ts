import { describe, expect, it } from 'vitest';
import { autoUpdateRuns, chooseDetail, choosePeriod, constructorHref, countStep, groupFor, includesNow, initialPeriod, mainSections, reportHref, toggleEvent } from './state';

const TODAY = '2026-11-24';

describe('the dashboard period', () => {
  it('opens on today, the last 30 minutes by minute', () => {
    expect(initialPeriod(TODAY)).toEqual({ dateStart: 'today', dateEnd: 'today', start: TODAY, end: TODAY, detail: 30, group: 'minute' });
  });

  it('goes to five minutes for any other detail of today, back to minutes for 30', () => {
    const hour = chooseDetail(60, TODAY, initialPeriod(TODAY));
    expect(hour.group).toBe('five_minute');
    expect(chooseDetail('today', TODAY, hour).group).toBe('five_minute');
    expect(chooseDetail(30, TODAY, hour).group).toBe('minute');
    expect(groupFor(TODAY, TODAY, TODAY, 'today', 'hour')).toBe('hour');
  });

  it('reads other periods whole by their default group, and swaps a start after the end', () => {
    expect(choosePeriod('yesterday', 'yesterday', TODAY, initialPeriod(TODAY))).toMatchObject({ start: '2026-11-23', end: '2026-11-23', group: 'hour' });
    expect(choosePeriod('2026-11-20', '2026-11-10', TODAY, initialPeriod(TODAY))).toMatchObject({ start: '2026-11-10', end: '2026-11-20', group: 'day' });
  });
});

describe('the auto-update', () => {
  const on = { live: true, on: true, visible: true, loading: false };
  it('runs only for today, switched on, in a visible tab, between requests', () => {
    expect(autoUpdateRuns(on)).toBe(true);
    expect(autoUpdateRuns({ ...on, live: false })).toBe(false);
    expect(autoUpdateRuns({ ...on, on: false })).toBe(false);
    expect(autoUpdateRuns({ ...on, visible: false })).toBe(false);
    expect(autoUpdateRuns({ ...on, loading: true })).toBe(false);
  });
});

describe('counts that animate', () => {
  it('steps by one every 1000/distance ms', () => {
    expect(countStep(10, 14)).toEqual({ next: 11, delayMs: 250 });
    expect(countStep(14, 10)).toEqual({ next: 13, delayMs: 250 });
    expect(countStep(7, 7)).toEqual({ next: 7, delayMs: 0 });
  });

  it('takes bigger steps over long distances, the same size all the way: about a second', () => {
    expect(countStep(0, 1000)).toEqual({ next: 20, delayMs: 20 });
    expect(countStep(980, 1000, 0)).toEqual({ next: 1000, delayMs: 20 });
    let shown = 150;
    let steps = 0;
    while (shown !== 12_339) {
      shown = countStep(shown, 12_339, 150).next;
      steps += 1;
    }
    expect(steps).toBe(50);
    // A new small change animates by units.
    expect(countStep(990, 1000)).toEqual({ next: 991, delayMs: 100 });
  });
});

describe('links', () => {
  it('leads a title to the full report of the same period, five minutes for minutes', () => {
    expect(reportHref('7596044', 'page_urls', initialPeriod(TODAY))).toBe('/stat/projects/7596044/new/report/page_urls?dateStart=today&dateEnd=today&groupBy=five_minute');
  });

  it('opens the constructor with a widget’s preset', () => {
    expect(constructorHref('7', 'traffic_sources')).toBe(
      '/stat/projects/7/new/report/constructor?dateStart=today&dateEnd=today&groupBy=five_minute&orderBy=visits%3Adesc&metrics=visits&dimensions=traffic_type',
    );
    expect(constructorHref('7', 'current_user_count')).toBeNull();
  });
});

describe('the events picker', () => {
  it('takes at most five events and lets one go', () => {
    const five = ['a', 'b', 'c', 'd', 'e'];
    expect(toggleEvent(five, 'f', 5)).toEqual(five);
    expect(toggleEvent(five, 'c', 5)).toEqual(['a', 'b', 'd', 'e']);
    expect(toggleEvent(['a'], 'b', 5)).toEqual(['a', 'b']);
  });
});

describe('the «now» count belongs to a period that includes now', () => {
  it('is a period that ends today: today, 7 days to today; not yesterday or last week', () => {
    expect(includesNow(initialPeriod(TODAY), TODAY)).toBe(true);
    expect(includesNow(choosePeriod('7days', 'today', TODAY, initialPeriod(TODAY)), TODAY)).toBe(true);
    expect(includesNow(choosePeriod('yesterday', 'yesterday', TODAY, initialPeriod(TODAY)), TODAY)).toBe(false);
    expect(includesNow({ end: '2026-11-22' }, TODAY)).toBe(false);
  });

  it('asks the «now» count with a period that includes now, and the period\'s visitors with a past one', () => {
    expect(mainSections(true)).toEqual({ sections: ['current_user_count', 'page_views', 'active_pages', 'platforms', 'utms'] });
    expect(mainSections(false)).toEqual({
      sections: ['page_views', 'active_pages', 'platforms', 'utms'],
      widget_params: { page_views: { metrics: ['page_views', 'visitors'] } },
    });
  });
});
