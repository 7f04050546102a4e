/** Reads what the api needs from a fetched page: its title, its icon's address. */

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', laquo: '«', raquo: '»', mdash: '—', ndash: '–' };

function decodeEntities(text: string): string {
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

const PNG_SIGNATURE = Buffer.from('89504e470d0a1a0a', 'hex');

/**
 * The icon as PNG, as the sites list shows it: a PNG as it is; from an ICO, its largest image
 * stored as PNG (what current icons hold); anything else (BMP-based ICO, GIF, JPEG) is null.
 */
export function iconPng(body: Buffer): Buffer | null {
  if (body.subarray(0, 8).equals(PNG_SIGNATURE)) return body;
  if (body.length < 6 || body.readUInt16LE(0) !== 0 || body.readUInt16LE(2) !== 1) return null;
  const count = body.readUInt16LE(4);
  let best: Buffer | null = null;
  let bestArea = -1;
  for (let i = 0; i < count; i++) {
    const entry = 6 + i * 16;
    if (entry + 16 > body.length) break;
    const width = body[entry] || 256;
    const height = body[entry + 1] || 256;
    const size = body.readUInt32LE(entry + 8);
    const offset = body.readUInt32LE(entry + 12);
    if (offset + size > body.length || size < 8) continue;
    const image = body.subarray(offset, offset + size);
    if (image.subarray(0, 8).equals(PNG_SIGNATURE) && width * height > bestArea) {
      best = Buffer.from(image);
      bestArea = width * height;
    }
  }
  return best;
}
