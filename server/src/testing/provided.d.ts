// What the global setup provides to every test through inject().
import 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** base URL of the embedded service's api, web app and snippet */
    apiUrl: string;
    /** base URL of its collector */
    collectorUrl: string;
    /** an administrator of the service (made with create-admin's function before it started) */
    admin: { email: string; password: string };
  }
}
