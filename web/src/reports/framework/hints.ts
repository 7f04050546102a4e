import { hintStateOf, type HintState, type MetaTip } from '@stat/schemas/hints';
import { readStored, writeStored } from '../../lib/browser';

/**
 * The report hints' texts and a visitor's hint state in this browser. What is hidden and when a
 * hint shows is the contract's (`@stat/schemas/hints`); a logged-in user's state lives on the
 * server (see `useHintState`).
 */

/** What a meta tip says. */
export const META_TIP_TEXTS: Record<MetaTip, string> = {
  reportFilter: 'Чтобы оставить в отчёте только нужные визиты, добавьте фильтр: по источнику, странице, устройству или географии.',
  reportGraph: 'Отметьте строки таблицы флажками, чтобы сравнить их на графике.',
  reportSettings: 'В списке «Показатели» выбираются столбцы таблицы; заголовок столбца сортирует по нему.',
  reportViews: 'Над графиком можно выбрать «1 график» или «2 графика» и вид графика: линии, столбцы, круговую диаграмму или области.',
  reportAdditional: 'Строки со стрелкой раскрываются: под ними — подробности, например поисковые системы под «Поисковыми системами».',
  reportCsv: 'Кнопка «Скачать отчёт» сохраняет таблицу в файл CSV для Excel и других программ.',
};

/** The browser's storage key of the hints of a visitor who is not logged in (the demo). */
export const GUEST_HINTS_KEY = 'reportHints:guest';

/** The stored state; anything unreadable reads as nothing hidden. */
export function readHints(key: string): HintState {
  try {
    return hintStateOf(JSON.parse(readStored(key) ?? 'null'));
  } catch {
    return hintStateOf(null);
  }
}

export function writeHints(key: string, state: HintState): void {
  writeStored(key, JSON.stringify(state));
}
