/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Gateway prefix of the api (default `/top100`). */
  readonly VITE_API_PREFIX?: string;
  /** Footer and help links (see app/links.ts). */
  readonly VITE_LINK_CONTACTS?: string;
  readonly VITE_LINK_SUPPORT?: string;
  readonly VITE_LINK_DOCS?: string;
  readonly VITE_LINK_DOCS_USABILITY?: string;
  readonly VITE_LINK_DOCS_CUSTOM_VARS?: string;
  readonly VITE_LINK_TERMS?: string;
  readonly VITE_LINK_PRIVACY?: string;
  readonly VITE_SUPPORT_EMAIL?: string;
  /** The advertising cabinet the left menu links to, per scope (see app/menu.ts). */
  readonly VITE_ADS_URL?: string;
  readonly VITE_ADS_SELLER_URL?: string;
  /** E-mail domains whose users see limited reports, comma separated. */
  readonly VITE_RESTRICTED_EMAIL_DOMAINS?: string;
}
