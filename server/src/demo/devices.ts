import { Weighted } from './random.js';

/** How a visitor's device is used: it shapes screens, sources, dwell times and networks. */
export type DeviceKind = 'mobile' | 'tablet' | 'desktop';

/** A browser on a device, as it announces itself, with its share of visitors. */
export interface Device {
  kind: DeviceKind;
  /** a real user agent of a current browser (headless or empty ones are dropped as bots) */
  ua: string;
  /** the screens it comes with (CSS pixels), most common first */
  screens: Weighted<readonly [number, number]>;
  /** percent of all visitors */
  share: number;
}

const screens = (list: readonly (readonly [number, number, number])[]): Weighted<readonly [number, number]> =>
  new Weighted(list.map(([w, h, weight]) => [[w, h] as const, weight] as const));

const ANDROID_PHONE = screens([
  [393, 873, 18], [412, 915, 16], [360, 800, 15], [385, 854, 12], [393, 852, 8], [412, 892, 8], [360, 780, 6], [384, 854, 6], [360, 760, 5],
]);
const IPHONE = screens([
  [390, 844, 26], [393, 852, 20], [430, 932, 14], [375, 812, 10], [414, 896, 10], [402, 874, 8], [375, 667, 7], [440, 956, 5],
]);
const IPAD = screens([[810, 1080, 40], [820, 1180, 35], [768, 1024, 25]]);
const ANDROID_TABLET = screens([[800, 1340, 45], [800, 1280, 35], [962, 601, 20]]);
const PC = screens([
  [1920, 1080, 40], [1536, 864, 15], [1366, 768, 14], [2560, 1440, 6], [1440, 900, 6], [1280, 720, 5], [1600, 900, 5], [1280, 1024, 3],
  [1680, 1050, 3], [1280, 800, 3],
]);
const MAC = screens([[1440, 900, 25], [1512, 982, 25], [1728, 1117, 15], [1470, 956, 15], [1280, 800, 10], [1920, 1080, 10]]);

const CHROME_ANDROID = (v: number) => `Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v}.0.0.0 Mobile Safari/537.36`;
const CHROME_WINDOWS = (v: number) => `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v}.0.0.0 Safari/537.36`;

/**
 * The browsers of a Russian news site's audience: about 62 % phones (Android two to one over
 * iPhone), 35 % computers (Chrome and Yandex Browser nearly even, Windows far ahead), 3 % tablets.
 * Chrome's reduced user agents (Android 10, model K) hide the phone's maker, as they do in life;
 * Yandex Browser, Samsung Internet and the MIUI browser still name it.
 */
const DEVICES: readonly Device[] = [
  // Android phones
  { kind: 'mobile', share: 10, screens: ANDROID_PHONE, ua: CHROME_ANDROID(141) },
  { kind: 'mobile', share: 6, screens: ANDROID_PHONE, ua: CHROME_ANDROID(142) },
  {
    kind: 'mobile', share: 5, screens: ANDROID_PHONE,
    ua: 'Mozilla/5.0 (Linux; arm_64; Android 14; 23129RAA4G) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 YaBrowser/25.8.1.87.00 SA/3 Mobile Safari/537.36',
  },
  {
    kind: 'mobile', share: 4, screens: ANDROID_PHONE,
    ua: 'Mozilla/5.0 (Linux; arm_64; Android 13; SM-A525F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 YaBrowser/25.10.2.98.00 SA/3 Mobile Safari/537.36',
  },
  {
    kind: 'mobile', share: 2, screens: ANDROID_PHONE,
    ua: 'Mozilla/5.0 (Linux; arm_64; Android 12; RMX3085) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/136.0.0.0 YaBrowser/25.6.4.48.00 SA/3 Mobile Safari/537.36',
  },
  {
    kind: 'mobile', share: 3, screens: ANDROID_PHONE,
    ua: 'Mozilla/5.0 (Linux; arm_64; Android 14; 2201117TY) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/136.0.0.0 YaApp_Android/25.90.1 YaSearchBrowser/25.90.1 BroPP/1.0 SA/3 Mobile Safari/537.36',
  },
  {
    kind: 'mobile', share: 3, screens: ANDROID_PHONE,
    ua: 'Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-A556E) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/28.0 Chrome/130.0.0.0 Mobile Safari/537.36',
  },
  {
    kind: 'mobile', share: 2, screens: ANDROID_PHONE,
    ua: 'Mozilla/5.0 (Linux; U; Android 13; ru-ru; 22101316UG Build/TP1A.220624.014) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/112.0.5615.136 Mobile Safari/537.36 XiaoMi/MiuiBrowser/14.10.1-gn',
  },
  // In-app browsers (VK, Telegram, Dzen open links in an Android WebView).
  {
    kind: 'mobile', share: 3, screens: ANDROID_PHONE,
    ua: 'Mozilla/5.0 (Linux; Android 13; V2207; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/139.0.7258.143 Mobile Safari/537.36',
  },
  {
    kind: 'mobile', share: 1, screens: ANDROID_PHONE,
    ua: 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Mobile Safari/537.36 OPR/91.0.0.0',
  },
  {
    kind: 'mobile', share: 1, screens: ANDROID_PHONE,
    ua: 'Mozilla/5.0 (Linux; Android 10; HarmonyOS; ANA-NX9; HMSCore 6.15.0.302) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.5735.196 HuaweiBrowser/15.0.4.312 Mobile Safari/537.36',
  },
  { kind: 'mobile', share: 0.5, screens: ANDROID_PHONE, ua: 'Mozilla/5.0 (Android 14; Mobile; rv:144.0) Gecko/144.0 Firefox/144.0' },
  // iPhones (iOS 26 keeps "iPhone OS 18_6" in the user agent and names Safari 26)
  {
    kind: 'mobile', share: 7, screens: IPHONE,
    ua: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 Mobile/15E148 Safari/604.1',
  },
  {
    kind: 'mobile', share: 5, screens: IPHONE,
    ua: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1',
  },
  {
    kind: 'mobile', share: 2, screens: IPHONE,
    ua: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.7 Mobile/15E148 Safari/604.1',
  },
  {
    kind: 'mobile', share: 3, screens: IPHONE,
    ua: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 YaBrowser/25.8.5.439.10 SA/3 Mobile/15E148 Safari/604.1',
  },
  {
    kind: 'mobile', share: 1.5, screens: IPHONE,
    ua: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/141.0.7390.96 Mobile/15E148 Safari/604.1',
  },
  // Tablets
  {
    kind: 'tablet', share: 1, screens: IPAD,
    ua: 'Mozilla/5.0 (iPad; CPU OS 16_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
  },
  {
    kind: 'tablet', share: 1.5, screens: ANDROID_TABLET,
    ua: 'Mozilla/5.0 (Linux; Android 13; SM-X200) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.0.0 Safari/537.36',
  },
  // Computers
  { kind: 'desktop', share: 8, screens: PC, ua: CHROME_WINDOWS(142) },
  { kind: 'desktop', share: 4, screens: PC, ua: CHROME_WINDOWS(141) },
  {
    kind: 'desktop', share: 6, screens: PC,
    ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 YaBrowser/25.8.0.0 Safari/537.36',
  },
  {
    kind: 'desktop', share: 4, screens: PC,
    ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 YaBrowser/25.10.0.0 Safari/537.36',
  },
  {
    kind: 'desktop', share: 2.5, screens: PC,
    ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36 Edg/142.0.0.0',
  },
  {
    kind: 'desktop', share: 2, screens: PC,
    ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36 OPR/124.0.0.0',
  },
  { kind: 'desktop', share: 1.5, screens: PC, ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:145.0) Gecko/20100101 Firefox/145.0' },
  {
    kind: 'desktop', share: 0.8, screens: PC,
    ua: 'Mozilla/5.0 (Windows NT 6.1; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/109.0.0.0 Safari/537.36',
  },
  {
    kind: 'desktop', share: 1.5, screens: MAC,
    ua: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 Safari/605.1.15',
  },
  {
    kind: 'desktop', share: 1.5, screens: MAC,
    ua: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36',
  },
  { kind: 'desktop', share: 0.6, screens: PC, ua: 'Mozilla/5.0 (X11; Linux x86_64; rv:145.0) Gecko/20100101 Firefox/145.0' },
  {
    kind: 'desktop', share: 0.6, screens: PC,
    ua: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36',
  },
];

/** The devices, picked by their shares. */
export const DEVICE_PICK = new Weighted(DEVICES.map((d) => [d, d.share] as const));
