/** Page-format values of the catalogue. This step tells Web, AMP and Turbo apart by the address; enrichHit adds Web-view from the user agent. Android, iOS and Yandex come from app and partner counters, which hits do not carry yet. */
const PAGE_FORMATS = ['Web', 'Web-view', 'Android', 'iOS', 'AMP', 'Turbo', 'Yandex'] as const;
type PageFormat = (typeof PAGE_FORMATS)[number];

/** The content and campaign dimensions of a page address; every string is '' when absent. */
export interface UrlInfo {
  /** the address as the counter sent it */
  url: string;
  /** scheme, host and path; no query, no fragment unless the fragment is a route (`#/…`, `#!/…`) */
  url_no_args: string;
  /** the distinct query parameter names, sorted and joined with '&': 'id&page' */
  url_args_key: string;
  page_format: PageFormat;
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
  utm_content: string;
  utm_term: string;
  /** the four fields of `_openstat` ('service;campaign;ad;source', base64 or plain) */
  openstat_service: string;
  openstat_campaign: string;
  openstat_ad: string;
  openstat_source: string;
}

/** A page address taken apart once, for parseUrl and the referrer classifier. */
export interface PageFacts {
  info: UrlInfo;
  /** the host, lower-case, '' when the address does not parse */
  host: string;
  /** query parameters by lower-cased name, the first value of each */
  params: ReadonlyMap<string, string>;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** '_openstat' → its four fields, or four '' when it is neither plain 'a;b;c;d' nor base64 of it. */
function openstat(value: string): [string, string, string, string] {
  let text = '';
  if (value.includes(';')) text = value;
  else if (/^[A-Za-z0-9+/\-_ ]+=*$/.test(value)) {
    // A '+' of base64 arrives as a space when the sender did not escape it.
    const b64 = value.replace(/ /g, '+').replace(/-/g, '+').replace(/_/g, '/');
    try {
      text = utf8.decode(Buffer.from(b64, 'base64'));
    } catch {
      text = '';
    }
  }
  if (!text.includes(';')) return ['', '', '', ''];
  const [service = '', campaign = '', ad = '', ...source] = text.split(';');
  return [service.trim(), campaign.trim(), ad.trim(), source.join(';').trim()];
}

function isAmp(host: string, path: string, params: ReadonlyMap<string, string>): boolean {
  if (host.endsWith('.cdn.ampproject.org') || host.startsWith('amp.')) return true;
  const segments = path.toLowerCase().split('/');
  if (segments.includes('amp')) return true;
  const last = segments[segments.length - 1] ?? '';
  if (last.endsWith('.amp') || last.endsWith('.amp.html')) return true;
  const amp = params.get('amp');
  return amp !== undefined && ['', '1', 'true'].includes(amp.toLowerCase());
}

function isTurbo(host: string, path: string): boolean {
  if (host === 'turbopages.org' || host.endsWith('.turbopages.org')) return true;
  return /^(?:www\.)?yandex\.[a-z.]+$/.test(host) && (path === '/turbo' || path.startsWith('/turbo/'));
}

function pageFormat(host: string, path: string, params: ReadonlyMap<string, string>): PageFormat {
  if (isTurbo(host, path)) return 'Turbo';
  if (isAmp(host, path, params)) return 'AMP';
  return 'Web';
}

/** Query parameters by lower-cased name (first value wins). */
function queryParams(search: URLSearchParams): Map<string, string> {
  const params = new Map<string, string>();
  for (const [name, value] of search) {
    const key = name.toLowerCase();
    if (!params.has(key)) params.set(key, value);
  }
  return params;
}

/** The dimensions of a page address from its parts; the campaign fields come from its query parameters. */
function urlInfo(url: string, urlNoArgs: string, argsKey: string, format: PageFormat, params: ReadonlyMap<string, string>): UrlInfo {
  const [service, campaign, ad, source] = openstat(params.get('_openstat') ?? '');
  const get = (name: string): string => (params.get(name) ?? '').trim();
  return {
    url,
    url_no_args: urlNoArgs,
    url_args_key: argsKey,
    page_format: format,
    utm_source: get('utm_source'),
    utm_medium: get('utm_medium'),
    utm_campaign: get('utm_campaign'),
    utm_content: get('utm_content'),
    utm_term: get('utm_term'),
    openstat_service: service,
    openstat_campaign: campaign,
    openstat_ad: ad,
    openstat_source: source,
  };
}

/** Takes a page address apart; never throws (an unparsable address keeps only `url`). */
export function pageFacts(pageUrl: string): PageFacts {
  const url = pageUrl.trim();
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (parsed === null) {
    const params = new Map<string, string>();
    return { info: urlInfo(url, url.split(/[?#]/, 1)[0] ?? '', '', 'Web', params), host: '', params };
  }
  const params = queryParams(parsed.searchParams);
  const names = [...new Set([...parsed.searchParams.keys()])].sort();
  const route = /^#!?\//.test(parsed.hash) ? (parsed.hash.split('?', 1)[0] ?? '') : '';
  const host = parsed.hostname;
  const info = urlInfo(url, `${parsed.protocol}//${parsed.host}${parsed.pathname}${route}`, names.join('&'), pageFormat(host, parsed.pathname, params), params);
  return { info, host, params };
}

/** The content (url, url_no_args, url_args_key, page_format) and campaign (UTM, openstat) dimensions of a page address. */
export function parseUrl(pageUrl: string): UrlInfo {
  return pageFacts(pageUrl).info;
}
