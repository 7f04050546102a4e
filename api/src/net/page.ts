/** Reads what the api needs from a fetched page: its title, its icon's address. */

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', laquo: '«', raquo: '»', mdash: '—', ndash: '–' };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** The page's text in its declared charset (header, then meta), UTF-8 otherwise. */
export function decodePage(body: Buffer, contentType: string): string {
  const head = body.subarray(0, 4096).toString('latin1');
  const charset = /charset=["']?([\w-]+)/i.exec(contentType)?.[1] ?? /<meta[^>]+charset=["']?([\w-]+)/i.exec(head)?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(charset.toLowerCase()).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/** The text of the first <title>, entities decoded, whitespace collapsed, at most 255 characters. */
export function pageTitle(html: string): string {
  const match = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  if (!match?.[1]) return '';
  return decodeEntities(match[1]).replace(/\s+/g, ' ').trim().slice(0, 255);
}

/** The address of the page's icon: a <link rel="icon"> (PNG preferred), else /favicon.ico. */
export function iconUrl(html: string, pageUrl: string): string {
  const links = [...html.matchAll(/<link\b[^>]*>/gi)].map((m) => m[0]);
  const icons = links.filter((l) => /\brel=["']?[^"'>]*\bicon\b/i.test(l));
  const png = icons.find((l) => /type=["']?image\/png/i.test(l) || /\.png\b/i.test(l));
  const href = /\bhref=["']?([^"'\s>]+)/i.exec(png ?? icons[0] ?? '')?.[1];
  try {
    return new URL(href ? decodeEntities(href) : '/favicon.ico', pageUrl).toString();
  } catch {
    return new URL('/favicon.ico', pageUrl).toString();
  }
}

/** True when the bytes are an image a browser shows: PNG, ICO, GIF, JPEG or WebP. */
export function isImage(body: Buffer): boolean {
  const hex = body.subarray(0, 12).toString('hex');
  return (
    hex.startsWith('89504e470d0a1a0a') ||
    hex.startsWith('00000100') ||
    hex.startsWith('47494638') ||
    hex.startsWith('ffd8ff') ||
    (hex.startsWith('52494646') && body.subarray(8, 12).toString('latin1') === 'WEBP')
  );
}
