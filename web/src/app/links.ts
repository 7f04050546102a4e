/**
 * Footer links (spec 000 §2.2). Their targets are not given by the spec; each can be set at
 * build time (`VITE_LINK_CONTACTS`, `VITE_LINK_SUPPORT`, `VITE_LINK_DOCS`, `VITE_LINK_TERMS`,
 * `VITE_LINK_PRIVACY`) and otherwise points to the project's own documentation page.
 */
const env = import.meta.env;

/** One footer link. */
export interface FooterLink {
  readonly label: string;
  readonly href: string;
}

/** The footer links, in the spec's order. */
export const FOOTER_LINKS: readonly FooterLink[] = [
  { label: 'Контакты', href: env.VITE_LINK_CONTACTS ?? '/stat/docs/contacts' },
  { label: 'Поддержка', href: env.VITE_LINK_SUPPORT ?? '/stat/docs/support' },
  { label: 'Документация', href: env.VITE_LINK_DOCS ?? '/stat/docs' },
  { label: 'Пользовательское соглашение', href: env.VITE_LINK_TERMS ?? '/stat/docs/terms' },
  { label: 'Конфиденциальность', href: env.VITE_LINK_PRIVACY ?? '/stat/docs/privacy' },
];
