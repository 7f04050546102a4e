/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Gateway prefix of the api (default `/top100`). */
  readonly VITE_API_PREFIX?: string;
}
