/** The reports' «Период:» picker (PeriodPicker) in DOM tests of the pages that use it. */
import { addDays, type IsoDate } from '@stat/schemas/period';
import type { QuickRange } from '../lib/period';
import { moscowToday } from '../lib/dates';
import { fire, type Rendered } from './render';

const click = (target: Element): Promise<void> => fire(target, new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));

/**
 * Picks a quick range in the page's «Период:» picker: one of its buttons, or for a calendar range
 * (last week, last month) the preset in the dates form the dates button opens.
 */
export async function pickRange(v: Rendered, id: QuickRange['id']): Promise<void> {
  const picker = v.container.querySelector('[data-testid="period-picker"]');
  if (!picker) throw new Error('the page shows no «Период:» picker');
  const inline = picker.querySelector(`[data-range="${id}"]`);
  if (inline) return click(inline);
  const dates = picker.querySelector('[data-testid="period-dates"]');
  if (!dates) throw new Error('the «Период:» picker has no dates button');
  await click(dates);
  const preset = picker.querySelector(`[role="dialog"] [data-range="${id}"]`);
  if (!preset) throw new Error(`the dates form offers no range ${id}`);
  await click(preset);
}

/** The quick range the picker shows as chosen, if any. */
export const pressedRange = (v: Rendered): string | null | undefined =>
  v.container.querySelector('[data-testid="period-picker"] [data-range][aria-pressed="true"]')?.getAttribute('data-range');

/**
 * The last `days` Moscow days to today, as «start..end», by the browser's clock: a DOM test has no
 * server clock (its call fails), so the page counts from the browser's Moscow day too.
 */
export function lastDays(days: number): string {
  const today: IsoDate = moscowToday();
  return `${addDays(today, -(days - 1))}..${today}`;
}
