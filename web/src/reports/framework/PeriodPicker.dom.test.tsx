// @vitest-environment happy-dom
/** «Период:» and its calendar (spec 001 §4 "Date modal") with a fake api for the project's days with data. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parsePeriod, type Period } from '../../lib/period';
import { cleanup, fakeApi, fire, render, until, type Rendered } from '../../testing/render';
import { PeriodPicker } from './Toolbar';
import { useServerClock } from './hooks';

const TODAY = '2026-11-28';
const period: Period = parsePeriod(new URLSearchParams('dateStart=2026-11-10&dateEnd=2026-11-12&groupBy=day'), TODAY).period;

let view: Rendered | null = null;
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const click = (target: Element | null | undefined): Promise<void> => fire(target, new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));
const day = (iso: string): HTMLButtonElement | null => document.querySelector<HTMLButtonElement>(`[data-testid="period-calendar"] [data-day="${iso}"]`);
const field = (label: 'С' | 'По'): HTMLInputElement => {
  const found = [...document.querySelectorAll('[role="dialog"] label')].find((l) => l.querySelector('span')?.textContent === label)?.querySelector('input');
  if (!found) throw new Error(`no field ${label}`);
  return found;
};
const apply = (): HTMLButtonElement => document.querySelector<HTMLButtonElement>('[role="dialog"] button[type="submit"]')!;

/** Types into a controlled input as a user does (React listens to the native setter's input event). */
async function typeInto(input: HTMLInputElement, text: string): Promise<void> {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  await fire(input, new Event('focus'));
  setter.call(input, text);
  await fire(input, new Event('input', { bubbles: true }));
}

async function open(projectId: string, lastDay?: string) {
  vi.stubGlobal('fetch', fakeApi({ [`/api/report/v1.0/service/eventbase_latency/${projectId}`]: { start: '2026-10-24', end: TODAY, last: null } }));
  const onChange = vi.fn();
  view = await render(<PeriodPicker period={period} today={TODAY} onChange={onChange} projectId={projectId} {...(lastDay ? { lastDay } : {})} />);
  await click(document.querySelector('[data-testid="period-dates"]'));
  return onChange;
}

describe('the «Период:» calendar', () => {
  it('shows the period\'s month and the one before, the period marked; two clicks and «Применить» choose a range', async () => {
    const onChange = await open('7100001');
    const titles = [...document.querySelectorAll('[data-testid="period-calendar"] [role="grid"]')].map((g) => g.getAttribute('aria-label'));
    expect(titles).toEqual(['Октябрь 2026', 'Ноябрь 2026']);
    expect([day('2026-11-10')?.getAttribute('aria-pressed'), day('2026-11-11')?.className.includes('dayInside'), day('2026-11-12')?.getAttribute('aria-pressed')]).toEqual(['true', true, 'true']);
    expect(day('2026-11-15')?.getAttribute('aria-label')).toBe('15 ноября 2026');

    await click(day('2026-11-20'));
    // After the first click the range waits for its end: nothing to apply yet.
    expect([field('С').value, field('По').value, apply().disabled]).toEqual(['20.11.2026', '', true]);
    // A second day before the first: the range is swapped.
    await click(day('2026-11-03'));
    expect([field('С').value, field('По').value, apply().disabled]).toEqual(['03.11.2026', '20.11.2026', false]);
    await click(apply());
    expect(onChange).toHaveBeenCalledWith('2026-11-03', '2026-11-20');
  });

  it('disables the days after today and, once the project\'s data is known, those before its first day', async () => {
    await open('7100002');
    expect(day('2026-11-28')?.disabled).toBe(false);
    expect(day('2026-11-29')?.disabled).toBe(true);
    await until(() => expect(day('2026-10-23')?.disabled).toBe(true));
    expect(day('2026-10-24')?.disabled).toBe(false);
    // Nothing to go back to, nothing ahead.
    expect([...document.querySelectorAll<HTMLButtonElement>('[data-testid="period-calendar"] button[aria-label$="месяц"]')].map((b) => b.disabled)).toEqual([true, true]);
  });

  it('stops at the last day the report allows (the rating\'s yesterday)', async () => {
    await open('7100003', '2026-11-27');
    expect([day('2026-11-27')?.disabled, day('2026-11-28')?.disabled]).toEqual([false, true]);
    // «Сегодня» is not offered where today cannot be chosen.
    expect([...document.querySelectorAll('[data-testid="period-picker"] [data-range]')].map((b) => b.getAttribute('data-range'))).not.toContain('today');
  });

  it('asks the project\'s days with data once a day: a page left open past midnight asks again', async () => {
    const asked: string[] = [];
    const api = fakeApi({ '/api/report/v1.0/service/eventbase_latency/7100005': { start: '2026-10-24', end: TODAY, last: null } });
    vi.stubGlobal('fetch', (async (input: string | URL | Request, init?: RequestInit) => {
      asked.push(String(input));
      return api(input, init);
    }) as typeof fetch);
    for (const today of [TODAY, TODAY, '2026-11-29']) {
      view = await render(<PeriodPicker period={period} today={today} onChange={() => undefined} projectId="7100005" />);
      await click(document.querySelector('[data-testid="period-dates"]'));
      await until(() => expect(day('2026-10-23')?.disabled).toBe(true));
      view.unmount();
      view = null;
    }
    expect(asked.filter((url) => url.includes('eventbase_latency'))).toHaveLength(2);
  });

  it('opened on a day the page does not know yet, asks the server\'s time again and shows the new day (spec §4: server time and latency refreshed on open)', async () => {
    // Only Date is faked: the page's answers still arrive on real timers.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    vi.setSystemTime(Date.parse('2026-11-27T20:30:00Z')); // 23:30 in Moscow, the 27th
    const asked: string[] = [];
    const latency = fakeApi({ '/api/report/v1.0/service/eventbase_latency/7100006': { start: '2026-10-24', end: '2026-11-28', last: null } });
    vi.stubGlobal('fetch', (async (input: string | URL | Request, init?: RequestInit) => {
      asked.push(String(input));
      // The server's clock agrees with this one.
      if (String(input).includes('/service/time')) return fakeApi({ '/api/report/v1.0/service/time': { timestamp: Math.floor(Date.now() / 1000) } })(input, init);
      return latency(input, init);
    }) as typeof fetch);
    const periodOf = (today: string) => parsePeriod(new URLSearchParams('dateStart=7days&dateEnd=today&groupBy=day'), today).period;
    function Page() {
      const clock = useServerClock();
      return clock ? <PeriodPicker period={periodOf(clock.today)} today={clock.today} onChange={() => undefined} projectId="7100006" /> : null;
    }
    const timeAsks = () => asked.filter((url) => url.includes('/service/time')).length;
    const latencyAsks = () => asked.filter((url) => url.includes('eventbase_latency')).length;
    view = await render(<Page />);
    await until(() => expect(document.querySelector('[data-testid="period-dates"]')).not.toBeNull());
    const before = timeAsks();
    await click(document.querySelector('[data-testid="period-dates"]'));
    await until(() => expect(latencyAsks()).toBe(1));
    expect([document.querySelector('[aria-current="date"]')?.getAttribute('data-day'), day('2026-11-28')?.disabled, timeAsks()]).toEqual(['2026-11-27', true, before]);
    await click(document.querySelector('[data-testid="period-dates"]'));

    // The page stays open past midnight; nothing renders it until «Период:» is opened again.
    vi.setSystemTime(Date.parse('2026-11-27T21:30:00Z')); // 00:30 in Moscow, the 28th
    await click(document.querySelector('[data-testid="period-dates"]'));
    await until(() => expect(document.querySelector('[aria-current="date"]')?.getAttribute('data-day')).toBe('2026-11-28'));
    expect([day('2026-11-28')?.disabled, timeAsks()]).toEqual([false, before + 1]);
    // The new day's days with data are asked too.
    await until(() => expect(latencyAsks()).toBe(2));
    expect(document.querySelector('[data-testid="period-dates"]')?.textContent).toBe('22.11.2026 – 28.11.2026');
  });

  it('reads each month as a grid of weeks; the arrow keys move between days, across months, not onto disabled ones', async () => {
    await open('7100007');
    await until(() => expect(day('2026-10-23')?.disabled).toBe(true));
    const grid = document.querySelector('[data-testid="period-calendar"] [role="grid"][aria-label="Ноябрь 2026"]');
    expect([...(grid?.querySelectorAll('thead th') ?? [])].map((h) => h.textContent)).toEqual(['Пн', 'Вт', 'Ср', 'Чт', 'Пт', 'Сб', 'Вс']);
    // November 2026 begins on a Sunday: six weeks, the 1st under «Вс».
    expect(grid?.querySelectorAll('tbody tr')).toHaveLength(6);
    expect(grid?.querySelector('tbody tr')?.lastElementChild?.querySelector('button')?.getAttribute('aria-label')).toBe('1 ноября 2026');
    const press = async (key: string) => fire(document.activeElement, new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
    day('2026-11-02')?.focus();
    await press('ArrowUp');
    expect(document.activeElement?.getAttribute('data-day')).toBe('2026-10-26');
    await press('ArrowLeft');
    expect(document.activeElement?.getAttribute('data-day')).toBe('2026-10-25');
    // The 24th is the data's first day, and the 18th before it: the focus stays.
    await press('ArrowUp');
    expect(document.activeElement?.getAttribute('data-day')).toBe('2026-10-25');
    await press('ArrowDown');
    await press('ArrowRight');
    expect(document.activeElement?.getAttribute('data-day')).toBe('2026-11-02');
  });

  it('brings the next month into view when the arrows pass the months shown', async () => {
    vi.stubGlobal('fetch', fakeApi({}));
    const early = parsePeriod(new URLSearchParams('dateStart=2026-08-10&dateEnd=2026-08-12&groupBy=day'), TODAY).period;
    view = await render(<PeriodPicker period={early} today={TODAY} onChange={() => undefined} />);
    await click(document.querySelector('[data-testid="period-dates"]'));
    expect([...document.querySelectorAll('[data-testid="period-calendar"] [role="grid"]')].map((g) => g.getAttribute('aria-label'))).toEqual(['Июль 2026', 'Август 2026']);
    day('2026-08-31')?.focus();
    await fire(document.activeElement, new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true, cancelable: true }));
    expect([...document.querySelectorAll('[data-testid="period-calendar"] [role="grid"]')].map((g) => g.getAttribute('aria-label'))).toEqual(['Август 2026', 'Сентябрь 2026']);
    expect(document.activeElement?.getAttribute('data-day')).toBe('2026-09-01');
  });

  it('closes without change by Escape and «Отменить», giving the focus back to its button, and by a click elsewhere', async () => {
    const onChange = await open('7100008');
    const dates = document.querySelector<HTMLButtonElement>('[data-testid="period-dates"]');
    const dialog = () => document.querySelector('[role="dialog"]');
    await click(day('2026-11-05'));
    day('2026-11-05')?.focus();
    await fire(document.activeElement, new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect([dialog(), document.activeElement === dates]).toEqual([null, true]);

    await click(dates);
    await click(day('2026-11-05'));
    const cancel = [...document.querySelectorAll('[role="dialog"] button')].find((b) => b.textContent === 'Отменить');
    await click(cancel);
    expect([dialog(), document.activeElement === dates]).toEqual([null, true]);

    await click(dates);
    await fire(document.body, new MouseEvent('mousedown', { bubbles: true }));
    expect(dialog()).toBeNull();
    // The period shown is the one it was opened with.
    expect(dates?.textContent).toBe('10.11.2026 – 12.11.2026');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('masks a typed date and follows it in the calendar', async () => {
    await open('7100004');
    await typeInto(field('С'), '01092026');
    expect(field('С').value).toBe('01.09.2026');
    // September is brought into view, marked as the start.
    await until(() => expect(day('2026-09-01')?.getAttribute('aria-pressed')).toBe('true'));
    expect(apply().disabled).toBe(false);
    // A one-digit day typed with its dot is read, and written whole when the field is left.
    await typeInto(field('По'), '5.10.2026');
    expect([field('По').value, apply().disabled]).toEqual(['5.10.2026', false]);
    await fire(field('По'), new FocusEvent('focusout', { bubbles: true }));
    expect(field('По').value).toBe('05.10.2026');
  });
});
