/**
 * The reports the app opens, from the shared definitions (`@stat/schemas/reports`: name, title,
 * drill-down path, metrics, default sort, sampling, empty kind): a title, metric list or label is
 * written there once and never again here. What is the web's own is kept here: the view that
 * renders a definition, the hint under the title and the placeholder texts. Views load on demand,
 * so the initial bundle carries none of them.
 */
import type { ComponentType } from 'react';
import { reportDefinition, type ReportDefinition } from '@stat/schemas/reports';
import type { ReportViewProps } from './view';

export type { ReportDefinition } from '@stat/schemas/reports';

/** A view's module, as `import()` gives it. */
export interface ViewModule {
  readonly default: ComponentType<ReportViewProps>;
}

/** A view's code on its way: `status` and `value` are set once it came. */
export type LoadingView = Promise<ViewModule> & { status?: 'fulfilled'; value?: ViewModule };

/**
 * A view's code, loaded once; the promise says when it came, so that a page rendered after that
 * shows the view at once. A failed load is tried again next time.
 */
function viewLoader(load: () => Promise<ViewModule>): () => LoadingView {
  let loading: LoadingView | null = null;
  return () => {
    if (!loading) {
      const promise: LoadingView = load().then(
        (module) => {
          promise.status = 'fulfilled';
          promise.value = module;
          return module;
        },
        (error: unknown) => {
          loading = null;
          throw error;
        },
      );
      loading = promise;
    }
    return loading;
  };
}

const loadTimeSeries = viewLoader(() => import('./timeseries/TimeSeriesReport'));
const loadDimension = viewLoader(() => import('./dimension/DimensionReport'));

/** Whether a definition's view is the time-series one (time buckets, no drill-down); else the dimension view. */
export function isTimeSeries(definition: ReportDefinition): boolean {
  return definition.drilldown.length === 0;
}

/** Starts loading the code of a report's view (the page opened on it), before React asks for it. */
export function preloadReportView(name: string): void {
  const definition = reportDefinition(name);
  if (definition) reportViewModule(definition).catch(() => undefined);
}

/**
 * The code of a definition's view (time buckets without a drill-down, the dimension view
 * otherwise): the same promise every time, so that views load on demand and the initial bundle
 * carries none of them.
 */
export function reportViewModule(definition: ReportDefinition): LoadingView {
  return isTimeSeries(definition) ? loadTimeSeries() : loadDimension();
}

/** Hints under the title, by report (the web's texts). */
const HINTS: Readonly<Record<string, string>> = {
  summary: 'Просмотры страниц, визиты и уникальные посетители сайта за выбранный период.',
  rating: 'Место сайта среди сайтов его тематики: по популярности, числу посетителей за полные дни периода.',
  traffic_sources: 'Откуда приходят посетители: поисковые системы, сайты, социальные сети, реклама и прямые заходы.',
  drilldown_sources: 'Источники трафика с сайтами, с которых пришли посетители.',
  ad_systems: 'Визиты из рекламных систем и их кампаний.',
  utms: 'Визиты по UTM-меткам в адресах переходов: источник, канал, кампания, объявление, ключевое слово.',
  openstat: 'Визиты по меткам Openstat в адресах переходов.',
  sites: 'Сайты, по ссылкам с которых пришли посетители, и их страницы.',
  search_system_phrase: 'Поисковые системы и фразы, по которым посетители нашли сайт.',
  search_phrase_system: 'Поисковые фразы и системы, в которых их искали.',
  aggrnews_system: 'Визиты из новостных агрегаторов.',
  exchange_system: 'Визиты из обменных сетей.',
  recom_system: 'Визиты из рекомендательных систем.',
  social_network: 'Визиты из социальных сетей.',
  message_system: 'Визиты по ссылкам из мессенджеров.',
  qr_system: 'Визиты по QR-кодам.',
  geo: 'Страны, регионы и города посетителей по их IP-адресам.',
  view_depth: 'Сколько страниц посетители смотрели за визит.',
  visit_time: 'Сколько длились визиты.',
  sex: 'Пол посетителей.',
  age: 'Возраст посетителей.',
  segments: 'Интересы посетителей.',
  device: 'Типы устройств посетителей, их производители и модели.',
  browser: 'Браузеры посетителей и их версии.',
  os: 'Операционные системы посетителей и их версии.',
  screensize: 'Разрешения экранов посетителей.',
  drilldown_width: 'Ширина и высота экранов посетителей.',
  page_formats: 'Форматы страниц, которые смотрели посетители.',
  page_urls: 'Адреса страниц сайта, которые смотрели посетители.',
  chapters: 'Разделы сайта по частям адреса страницы: раздел раскрывается в подразделы и страницы.',
  page_titles: 'Заголовки страниц, которые смотрели посетители.',
  page_args: 'Параметры в адресах страниц и страницы с ними.',
  entrance_pages: 'Страницы, с которых посетители начинали визит.',
  exit_pages: 'Страницы, на которых посетители заканчивали визит.',
  usability: 'Показы и клики по блокам страниц, размеченным для блочной аналитики.',
  custom_vars: 'События, которые сайт отправляет счётчику, и их параметры.',
  likes: 'Лайки и репосты материалов через кнопки социальных сетей.',
  materials_summary: 'Статьи сайта по названиям: просмотры, читатели и сколько дочитали до конца.',
  authors_summary: 'Авторы статей сайта: просмотры их материалов, читатели и дочитывания.',
};

/** The hint of a report, if it has one. */
export function reportHint(name: string): string | undefined {
  return Object.hasOwn(HINTS, name) ? HINTS[name] : undefined;
}

/** The definition of a report the app can open, or undefined. */
export function openableReport(name: string): ReportDefinition | undefined {
  return reportDefinition(name);
}

/**
 * Base report names of the spec (001 §2) that no definition answers yet: their route shows a
 * «coming» placeholder; any other unknown name is a 404.
 */
export const PLANNED_REPORTS: ReadonlySet<string> = new Set<string>();

/** Media report names of the spec (001 §2) still to be built (materials_summary and authors_summary are defined reports). */
export const PLANNED_MEDIA_REPORTS: ReadonlySet<string> = new Set(['top', 'material', 'author']);
