/**
 * The menus of spec 000 §2.2 as data, and the rules that hide their items:
 * - the left (product) menu, whose advertising-cabinet links follow the scope parameter stored
 *   under `uScope`;
 * - the report menu of a project, whose items are hidden when the report is not in the project's
 *   `available_reports` (media reports need `media_totals`; rating needs no entry there, only a rating
 *   status in which its reports exist: included, editing, need_change, or the demo project), when the
 *   user's e-mail domain is restricted (only the usability report and the constructor), or when
 *   an item is staff-only and the user is neither staff nor holds `can_read_dev_reports`.
 */
import { REPORT_DEFINITIONS, type ReportGroup } from '@stat/schemas/reports';
import type { CurrentUser } from '@stat/schemas/accounts';

const env = import.meta.env ?? {};

/** Storage key of the scope parameter (spec 000 §2.2). */
export const SCOPE_KEY = 'uScope';

/** The scope in which the cabinet works for a seller rather than an advertiser. */
const SELLER_SCOPE = 'seller';

/** A link of the left menu. */
export interface ProductItem {
  readonly id: 'campaigns' | 'reports' | 'audiences' | 'creative' | 'statistics' | 'cabinet' | 'profile';
  readonly label: string;
  /** In-app path, or a URL in the advertising cabinet. */
  readonly href: string;
  readonly external: boolean;
}

/** Where the advertising cabinet lives, per scope; none configured hides its links. */
export interface CabinetHosts {
  readonly advertiser: string;
  readonly seller: string;
}

/** The cabinet hosts of this build (`VITE_ADS_URL`, `VITE_ADS_SELLER_URL`). */
const CABINET_HOSTS: CabinetHosts = {
  advertiser: (env.VITE_ADS_URL ?? '').replace(/\/+$/, ''),
  seller: (env.VITE_ADS_SELLER_URL ?? env.VITE_ADS_URL ?? '').replace(/\/+$/, ''),
};

/** Whether a host name looks like a development or test stand, not production. */
export function isNonProductionHost(hostname: string): boolean {
  return /(^localhost$)|(^127\.)|(^\[?::1\]?$)|(\.local$)|(\.test$)|(^|[.-])(dev|test|stage|staging|preprod|qa)([.-]|\d|$)/i.test(hostname);
}

/**
 * The left menu for a scope and host (spec 000 §2.2): campaigns, reports, audiences (only on
 * non-production hosts, hidden for the seller scope), creative studio (hidden for the seller
 * scope), statistics, ad account, profile. Cabinet links appear only when a cabinet host is set.
 */
export function productMenu(scope: string | null, hostname: string, hosts: CabinetHosts = CABINET_HOSTS): ProductItem[] {
  const seller = scope === SELLER_SCOPE;
  const cabinet = seller ? hosts.seller : hosts.advertiser;
  const items: ProductItem[] = [];
  const link = (id: ProductItem['id'], label: string, path: string) => {
    if (cabinet) items.push({ id, label, href: `${cabinet}${path}`, external: true });
  };
  link('campaigns', 'Кампании', '/campaigns');
  link('reports', 'Отчёты', '/reports');
  if (!seller && isNonProductionHost(hostname)) link('audiences', 'Аудитории', '/audiences');
  if (!seller) link('creative', 'Креативная студия', '/creative-studio');
  items.push({ id: 'statistics', label: 'Статистика', href: '/stat/projects', external: false });
  link('cabinet', 'Рекламный кабинет', '/account');
  items.push({ id: 'profile', label: 'Профиль', href: '#profile', external: false });
  return items;
}

/**
 * The scope in force: the `scope` query parameter when present (and then stored), else the
 * stored one.
 */
export function resolveScope(search: string, storage: Pick<Storage, 'getItem' | 'setItem'> | null): string | null {
  const fromQuery = new URLSearchParams(search).get('scope');
  if (fromQuery) {
    try {
      storage?.setItem(SCOPE_KEY, fromQuery);
    } catch {
      // Storage can be full or refused; the scope still applies to this page.
    }
    return fromQuery;
  }
  try {
    return storage?.getItem(SCOPE_KEY) ?? null;
  } catch {
    return null;
  }
}

/** Storage key of the left menu's collapse state, per user. */
export function collapseKey(userId: number | null): string {
  return `menuCollapsed:${userId ?? 'anonymous'}`;
}

/** E-mail domains whose users see limited reports (`VITE_RESTRICTED_EMAIL_DOMAINS`, comma separated). */
const RESTRICTED_DOMAINS: readonly string[] = (env.VITE_RESTRICTED_EMAIL_DOMAINS ?? '')
  .split(',')
  .map((d: string) => d.trim().toLowerCase())
  .filter(Boolean);

/** Whether the user's e-mail domain is restricted (a subdomain of a listed domain is too). */
export function isRestrictedUser(email: string | null | undefined, domains: readonly string[] = RESTRICTED_DOMAINS): boolean {
  const domain = email?.split('@')[1]?.toLowerCase();
  if (!domain) return false;
  return domains.some((d) => domain === d || domain.endsWith(`.${d}`));
}

/** Whether the user may see staff-only (beta) items. */
export function isStaffLike(user: Pick<CurrentUser, 'is_top100_staff' | 'role_permissions'> | null): boolean {
  return user !== null && (user.is_top100_staff || user.role_permissions.includes('can_read_dev_reports'));
}

/** An item of a project's report menu. */
interface ReportMenuItem {
  /** Path below `/stat/projects/{id}/`. */
  readonly to: string;
  readonly label: string;
  /** The report the item opens: hidden when not in available_reports. */
  readonly report?: string;
  /** A media report: needs `media_totals`. */
  readonly media?: boolean;
  /** Shown only to staff and holders of can_read_dev_reports. */
  readonly staffOnly?: boolean;
  /** Still shown to users of restricted domains. */
  readonly restrictedOk?: boolean;
  /** Shown only to those who may edit the project. */
  readonly editorsOnly?: boolean;
  /** Keep the period in the link (report pages). */
  readonly carry?: boolean;
}

/** A titled group of the report menu. */
export interface ReportMenuGroup {
  readonly title?: string;
  readonly items: readonly ReportMenuItem[];
}

/**
 * Reports reached through another report's drill-down or filters, not from the menu (spec 001 §2:
 * "Further names seen in filters and drill-down"). `chapters` is one of those names too, but it is
 * the only way to the URL tree by path segments, so «Разделы сайта» has its menu item.
 */
const NOT_IN_MENU: ReadonlySet<string> = new Set(['drilldown_sources', 'drilldown_width']);

/** Titles of the menu's report groups, in menu order. */
const REPORT_GROUPS: readonly { readonly group: Exclude<ReportGroup, 'summary'>; readonly title: string }[] = [
  { group: 'sources', title: 'Источники' },
  { group: 'audience', title: 'Аудитория' },
  { group: 'technology', title: 'Технологии' },
  { group: 'content', title: 'Содержание' },
  { group: 'events', title: 'События' },
];

/** The menu item of a base report: its title from the shared definition. */
function reportItem(name: string): ReportMenuItem[] {
  const definition = Object.hasOwn(REPORT_DEFINITIONS, name) ? REPORT_DEFINITIONS[name] : undefined;
  if (!definition || NOT_IN_MENU.has(name)) return [];
  return [{ to: `new/report/${name}`, label: definition.title, report: name, carry: true, ...(name === 'usability' ? { restrictedOk: true } : {}) }];
}

/**
 * The report menu (spec 000 §2.2: dashboard, the reports by group, constructor, goals,
 * conversions, funnels); the base reports are every shared definition, grouped as defined.
 */
export const REPORT_MENU: readonly ReportMenuGroup[] = [
  { items: [{ to: 'dashboard', label: 'Дашборд' }] },
  {
    title: 'Отчёты',
    items: [
      ...reportItem('summary'),
      { to: 'new/report/rating', label: 'Рейтинг', report: 'rating', carry: true },
      { to: 'new/media/materials_summary', label: 'Материалы', report: 'materials_summary', media: true, carry: true },
      { to: 'new/media/authors_summary', label: 'Авторы', report: 'authors_summary', media: true, carry: true },
    ],
  },
  ...REPORT_GROUPS.map(({ group, title }) => ({
    title,
    items: Object.values(REPORT_DEFINITIONS)
      .filter((d) => d.group === group)
      .flatMap((d) => reportItem(d.name)),
  })),
  {
    title: 'Инструменты',
    items: [
      { to: 'constructor', label: 'Конструктор отчётов', restrictedOk: true },
      { to: 'goals', label: 'Цели' },
      { to: 'conversions', label: 'Конверсии' },
      { to: 'funnels', label: 'Воронки' },
      { to: 'export', label: 'Выгрузка данных', staffOnly: true },
    ],
  },
  { title: 'Сайт', items: [{ to: 'settings/counter', label: 'Настройки', editorsOnly: true }] },
];

/** What decides the report menu. */
export interface MenuContext {
  readonly availableReports: readonly string[];
  readonly restricted: boolean;
  readonly staff: boolean;
  readonly canEdit: boolean;
  /** Rating reports are asked for only in some rating statuses (spec 000 §4). */
  readonly ratingAllowed: boolean;
}

/** Whether one item of the report menu is shown. */
function isItemVisible(item: ReportMenuItem, ctx: MenuContext): boolean {
  if (ctx.restricted && !item.restrictedOk) return false;
  if (item.staffOnly && !ctx.staff) return false;
  if (item.editorsOnly && !ctx.canEdit) return false;
  if (item.report === 'rating' && !ctx.ratingAllowed) return false;
  if (item.report && item.report !== 'rating') {
    if (item.media ? !ctx.availableReports.includes('media_totals') : !ctx.availableReports.includes(item.report)) return false;
  }
  return true;
}

/** The report menu with hidden items and emptied groups left out. */
export function visibleMenu(ctx: MenuContext, menu: readonly ReportMenuGroup[] = REPORT_MENU): ReportMenuGroup[] {
  return menu
    .map((group) => ({ ...group, items: group.items.filter((item) => isItemVisible(item, ctx)) }))
    .filter((group) => group.items.length > 0);
}

/**
 * The path a switch to another project leads to (spec 000 §2.4): the same section with the id
 * swapped; a media path with /material/ or /author/ goes to materials_summary or authors_summary;
 * no section goes to the dashboard. The query string stays (the period of a report).
 */
export function switchProjectPath(pathname: string, search: string, projectId: number | string): string {
  const match = /^\/stat\/projects\/\d+(\/.*)?$/.exec(pathname);
  let section = match?.[1]?.replace(/\/+$/, '') ?? '';
  if (/\/material\//.test(`${section}/`)) section = '/new/media/materials_summary';
  else if (/\/author\//.test(`${section}/`)) section = '/new/media/authors_summary';
  else if (/^\/conversions\/[^/]+$/.test(section)) section = '/conversions';
  if (!section) section = '/dashboard';
  return `/stat/projects/${projectId}${section}${section === '/dashboard' ? '' : search}`;
}
