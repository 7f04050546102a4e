/** One answer of the api, its JSON parsed. */
export interface Answer {
  status: number;
  json: any;
  headers: Headers;
}

/**
 * A browser-like client of the api: keeps the cookies it is given, sends the CSRF header on
 * state-changing calls (unless told not to).
 */
export class ApiClient {
  readonly cookies = new Map<string, string>();

  /**
   * `address`, when given, is sent as X-Forwarded-For: the test api trusts it, so that clients
   * playing different people also come from different addresses (see `newUser`).
   */
  constructor(
    readonly baseUrl: string,
    readonly prefix = '/top100',
    readonly address?: string,
  ) {}

  async call(
    method: string,
    path: string,
    body?: unknown,
    options: { csrf?: boolean; headers?: Record<string, string> } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = { ...(this.address ? { 'x-forwarded-for': this.address } : {}), ...options.headers };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method !== 'GET' && method !== 'HEAD' && options.csrf !== false) headers['x-requested-with'] = 'XMLHttpRequest';
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ');
    const response = await fetch(`${this.baseUrl}${this.prefix}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = decodeURIComponent(pair.slice(eq + 1));
      if (/Max-Age=0\b/.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = text;
    }
    return { status: response.status, json, headers: response.headers };
  }

  get = (path: string, options?: { headers?: Record<string, string> }): Promise<Answer> => this.call('GET', path, undefined, options);
  post = (path: string, body?: unknown, options?: { csrf?: boolean }): Promise<Answer> => this.call('POST', path, body, options);
  put = (path: string, body?: unknown): Promise<Answer> => this.call('PUT', path, body);
  patch = (path: string, body?: unknown): Promise<Answer> => this.call('PATCH', path, body);
  delete = (path: string): Promise<Answer> => this.call('DELETE', path);

  /** Registers (and so logs in) a new account; throws unless the api says 200. */
  async register(email: string, password = 'correct horse battery'): Promise<{ id: number; email: string }> {
    const answer = await this.post('/api/v1.0/auth/register', { email, password });
    if (answer.status !== 200) throw new Error(`register answered ${answer.status}: ${JSON.stringify(answer.json)}`);
    return { id: answer.json.result.id, email };
  }

  async login(email: string, password = 'correct horse battery'): Promise<Answer> {
    return this.post('/api/v1.0/auth/login', { email, password });
  }
}
