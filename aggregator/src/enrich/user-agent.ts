/// <reference path="./ua-parser-js.d.ts" />
// ua-parser-js 1.x ships no types: its declaration is beside this file, referenced so that every
// program compiling this file sees it (tsconfig.tests.json includes only the tests and what they import).
import { isbot } from 'isbot';
import UAParser from 'ua-parser-js';
import type { DeviceType } from '@stat/schemas';
import { Lru } from './lru.js';

/** Device classes of the `device_type` dimension (defined in schemas, with their titles). */
;

/**
 * What a user agent says about the browser, the system and the device. Names are ua-parser-js 1.x
 * names ('Chrome', 'Yandex', 'Mobile Safari', 'Samsung Internet', 'Windows', 'Mac OS', 'iOS', …);
 * every string is '' when the user agent does not say.
 */
export interface UserAgentInfo {
  browser_family: string;
  browser_version_major: string;
  browser_version_minor: string;
  os_family: string;
  os_version_major: string;
  os_version_minor: string;
  device_type: DeviceType;
  device_brand: string;
  device_model: string;
}

/** ua-parser-js reads at most this much of a user agent; the cache keys on the same prefix. */
const UA_MAX_LENGTH = 500;
/** Distinct user agents remembered. Real traffic has a few thousand; at 500 characters a key, 10 000 entries stay under ~15 MB. */
const CACHE_ENTRIES = 10_000;

/** Systems on which a user agent with no device type is a desktop or a laptop. */
const DESKTOP_SYSTEMS = new Set(['Windows', 'Mac OS', 'Linux', 'Ubuntu', 'Debian', 'Fedora', 'Mint', 'Arch', 'Gentoo', 'Slackware', 'SUSE', 'openSUSE', 'Red Hat', 'CentOS', 'Mandriva', 'Chromium OS', 'FreeBSD', 'OpenBSD', 'NetBSD', 'Solaris', 'Unix', 'Haiku', 'Deepin', 'elementary OS', 'Zenwalk', 'Kubuntu', 'Xubuntu', 'Lubuntu']);

const DEVICE_TYPE_OF: Readonly<Record<string, DeviceType>> = {
  mobile: 'mobile',
  tablet: 'tablet',
  smarttv: 'tv',
  console: 'console',
  wearable: 'wearable',
  embedded: 'embedded',
  xr: 'other',
};

interface Parsed {
  info: UserAgentInfo;
  bot: boolean;
}

const cache = new Lru<string, Parsed>(CACHE_ENTRIES);

/** '126.0.6478.61' → ['126', '0']; '10' → ['10', '']; a missing version → ['', ''] */
function majorMinor(version: string | undefined): [string, string] {
  const match = /^(\d+)(?:[._](\d+))?/.exec(version ?? '');
  return [match?.[1] ?? '', match?.[2] ?? ''];
}

function deviceType(type: string | undefined, os: string, model: string): DeviceType {
  if (type !== undefined) return DEVICE_TYPE_OF[type] ?? 'other';
  // ua-parser-js leaves the type empty for desktops; say so only when the system is one.
  if (DESKTOP_SYSTEMS.has(os) || model === 'Macintosh') return 'desktop';
  return 'other';
}

/**
 * Chrome's reduced user agent on Android (Chrome 110 and later, and browsers built on it) names
 * every device «Android 10; K»: a frozen placeholder, not the system's version nor the model. Read
 * as data it made «K» the most common smartphone and Android 10 two in five Android visits.
 */
const FROZEN_ANDROID = /\(Linux; Android 10; K\)/;

function parse(ua: string): Parsed {
  const r = new UAParser(ua).getResult();
  const frozen = FROZEN_ANDROID.test(ua);
  const [browserMajor, browserMinor] = majorMinor(r.browser.version);
  const [osMajor, osMinor] = frozen ? ['', ''] : majorMinor(r.os.version);
  const os = r.os.name ?? '';
  const model = frozen ? '' : (r.device.model ?? '');
  return {
    info: {
      browser_family: r.browser.name ?? '',
      browser_version_major: browserMajor,
      browser_version_minor: browserMinor,
      os_family: os,
      os_version_major: osMajor,
      os_version_minor: osMinor,
      device_type: deviceType(r.device.type, os, model),
      device_brand: r.device.vendor ?? '',
      device_model: model,
    },
    // Real browsers always send a user agent: an empty one is a script (and counting it would
    // add a "nothing known" visitor that no filter can remove).
    bot: ua.trim() === '' || isbot(ua),
  };
}

function lookup(ua: string): Parsed {
  const key = ua.length > UA_MAX_LENGTH ? ua.slice(0, UA_MAX_LENGTH) : ua;
  let parsed = cache.get(key);
  if (parsed === undefined) {
    parsed = parse(key);
    cache.set(key, parsed);
  }
  return parsed;
}

/** Browser, system and device of a user agent; cached by user agent (the result is shared: do not mutate it). */
export function parseUserAgent(ua: string): UserAgentInfo {
  return lookup(ua).info;
}

/**
 * True for crawlers, spiders, monitoring, headless browsers and HTTP libraries (isbot's list:
 * Googlebot, YandexBot, curl, HeadlessChrome, …) and for an empty or blank user agent.
 */
export function isBot(ua: string): boolean {
  return lookup(ua).bot;
}

/**
 * True when the page was shown inside an app rather than a browser: Android WebView ('; wv)'),
 * or an iOS app's WKWebView (WebKit with no Safari in its name).
 */
export function isWebView(info: UserAgentInfo): boolean {
  return info.browser_family === 'Chrome WebView' || (info.os_family === 'iOS' && info.browser_family === 'WebKit');
}
