/**
 * Footer links (spec 000 §2.2). Their targets are not given by the spec; each can be set at
 * build time (`VITE_LINK_CONTACTS`, `VITE_LINK_SUPPORT`, `VITE_LINK_DOCS`, `VITE_LINK_DOCS_USABILITY`,
 * `VITE_LINK_DOCS_CUSTOM_VARS`, `VITE_LINK_TERMS`, `VITE_LINK_PRIVACY`, `VITE_SUPPORT_EMAIL`) and
 * otherwise points to the project's own documentation page.
 */
const env = import.meta.env ?? {};

/** One footer link. */
export interface FooterLink {
  readonly label: string;
  readonly href: string;
}

/** The release version shown in the footer (spec 000 §9). */
export const RELEASE_VERSION = '3.60.18';

/** The support address (the access page's daily-limit message links to it). */
export const SUPPORT_EMAIL: string = env.VITE_SUPPORT_EMAIL ?? 'support@example.com';

/** The terms of use (the create form's checkbox links to them). */
export const TERMS_URL: string = env.VITE_LINK_TERMS ?? '/stat/docs/terms';

const DOCS: string = env.VITE_LINK_DOCS ?? '/stat/docs';

/** The documentation link: its own page for the usability and custom_vars reports. */
export function docsLink(pathname: string): string {
  if (/\/new\/report\/usability(\/|$)/.test(pathname)) return env.VITE_LINK_DOCS_USABILITY ?? '/stat/docs/usability';
  if (/\/new\/report\/custom_vars(\/|$)/.test(pathname)) return env.VITE_LINK_DOCS_CUSTOM_VARS ?? '/stat/docs/custom_vars';
  return DOCS;
}

/** The footer links, in the spec's order, for the page at `pathname`. */
export function footerLinks(pathname = ''): readonly FooterLink[] {
  return [
    { label: 'Контакты', href: env.VITE_LINK_CONTACTS ?? '/stat/docs/contacts' },
    { label: 'Поддержка', href: env.VITE_LINK_SUPPORT ?? '/stat/docs/support' },
    { label: 'Документация', href: docsLink(pathname) },
    { label: 'Пользовательское соглашение', href: TERMS_URL },
    { label: 'Конфиденциальность', href: env.VITE_LINK_PRIVACY ?? '/stat/docs/privacy' },
  ];
}
