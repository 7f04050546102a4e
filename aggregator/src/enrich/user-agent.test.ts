import { describe, expect, it } from 'vitest';
import { agentInfo } from '../testing/enrichment.js';
import { isBot, isWebView, parseUserAgent } from './user-agent.js';

const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.127 Safari/537.36';
const YANDEX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 YaBrowser/24.6.1.806 Yowser/2.5 Safari/537.36';
const YANDEX_ANDROID = 'Mozilla/5.0 (Linux; arm_64; Android 12; SM-A525F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.6261.128 YaBrowser/24.4.4.128.00 SA/3 Mobile Safari/537.36';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const SAFARI_IPAD = 'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1';
const SAFARI_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
const SAMSUNG = 'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36';
const FIREFOX_UBUNTU = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0';
const EDGE = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.87';
const ANDROID_WEBVIEW = 'Mozilla/5.0 (Linux; Android 13; 2201117TY Build/TKQ1.221114.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/125.0.6422.165 Mobile Safari/537.36';
const IOS_APP = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';
const ANDROID_TABLET = 'Mozilla/5.0 (Linux; Android 11; Lenovo TB-J606F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const SMART_TV = 'Mozilla/5.0 (SMART-TV; Linux; Tizen 6.0) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/4.0 Chrome/76.0.3809.146 TV Safari/537.36';
const PLAYSTATION = 'Mozilla/5.0 (PlayStation; PlayStation 5/2.26) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.0 Safari/605.1.15';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const GOOGLEBOT_SMARTPHONE = 'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.126 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const YANDEXBOT = 'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)';
const HEADLESS = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36';

describe('parseUserAgent', () => {
  // Whole values: the browser, the system and the device, each as family (type), major, minor (brand, model).
  it.each([
    ['Chrome on Windows is a desktop', CHROME_WINDOWS, ['Chrome', '126', '0'], ['Windows', '10', ''], ['desktop', '', '']],
    ['Yandex Browser on Windows is Yandex, by its own version', YANDEX_WINDOWS, ['Yandex', '24', '6'], ['Windows', '10', ''], ['desktop', '', '']],
    ['Yandex Browser on a Samsung phone', YANDEX_ANDROID, ['Yandex', '24', '4'], ['Android', '12', ''], ['mobile', 'Samsung', 'SM-A525F']],
    ['Safari on an iPhone reads the iOS version with underscores', SAFARI_IPHONE, ['Mobile Safari', '17', '5'], ['iOS', '17', '5'], ['mobile', 'Apple', 'iPhone']],
    ['Safari on a Mac is a desktop by its model', SAFARI_MAC, ['Safari', '17', '5'], ['Mac OS', '10', '15'], ['desktop', 'Apple', 'Macintosh']],
    ['Samsung Internet on a Galaxy S23 Ultra', SAMSUNG, ['Samsung Internet', '25', '0'], ['Android', '14', ''], ['mobile', 'Samsung', 'SM-S918B']],
    ['Firefox on Ubuntu is a desktop with no system version', FIREFOX_UBUNTU, ['Firefox', '127', '0'], ['Ubuntu', '', ''], ['desktop', '', '']],
    ['an empty user agent is all unknown, device other', '', ['', '', ''], ['', '', ''], ['other', '', '']],
  ] as const)('%s', (_, ua, browser, os, device) => {
    expect(parseUserAgent(ua)).toEqual(agentInfo(browser, os, device));
  });

  // The fields each case is about.
  it.each([
    ['Safari on an iPad is a tablet', SAFARI_IPAD, { device_type: 'tablet', device_brand: 'Apple', device_model: 'iPad', os_family: 'iOS' }],
    ['Edge is Edge, not the Chrome it carries', EDGE, { browser_family: 'Edge', browser_version_major: '126', browser_version_minor: '0', device_type: 'desktop' }],
    ['an Android tablet without "Mobile" is a tablet', ANDROID_TABLET, { device_type: 'tablet', device_brand: 'Lenovo', device_model: 'TB-J606F' }],
    ['a Samsung smart TV is a tv', SMART_TV, { device_type: 'tv', device_brand: 'Samsung', os_family: 'Tizen' }],
    ['a PlayStation is a console', PLAYSTATION, { device_type: 'console', device_brand: 'Sony', device_model: 'PlayStation 5' }],
  ])('%s', (_, ua, fields) => {
    expect(parseUserAgent(ua)).toMatchObject(fields);
  });

  it('Chrome\'s reduced user agent on Android says neither the system\'s version nor the model («Android 10; K» is a placeholder)', () => {
    const reduced = 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
    expect(parseUserAgent(reduced)).toEqual(agentInfo(['Chrome', '131', '0'], ['Android', '', ''], ['mobile', '', '']));
    // A real Android 10 device that names its model keeps both.
    expect(parseUserAgent('Mozilla/5.0 (Linux; Android 10; SM-G973F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/83.0.4103.106 Mobile Safari/537.36')).toMatchObject({ os_version_major: '10', device_model: 'SM-G973F' });
  });

  it('a repeated user agent comes from the cache: the same object', () => {
    expect(parseUserAgent(CHROME_WINDOWS)).toBe(parseUserAgent(CHROME_WINDOWS));
  });

  it('a huge user agent is read by its first 500 characters', () => {
    expect(parseUserAgent(CHROME_WINDOWS + ' x'.repeat(5000))).toEqual(parseUserAgent(CHROME_WINDOWS));
  });
});

describe('isWebView', () => {
  it('an Android WebView and an iOS app are web views; browsers are not', () => {
    expect([ANDROID_WEBVIEW, IOS_APP, SAFARI_IPHONE, CHROME_WINDOWS, SAMSUNG].map((ua) => isWebView(parseUserAgent(ua)))).toEqual([true, true, false, false, false]);
  });
});

describe('isBot', () => {
  it('browsers are people', () => {
    expect([CHROME_WINDOWS, YANDEX_WINDOWS, YANDEX_ANDROID, SAFARI_IPHONE, SAMSUNG, FIREFOX_UBUNTU, EDGE, ANDROID_WEBVIEW].map(isBot)).toEqual([false, false, false, false, false, false, false, false]);
  });

  it('Googlebot, in both its desktop and smartphone forms, is a bot', () => {
    expect([isBot(GOOGLEBOT), isBot(GOOGLEBOT_SMARTPHONE)]).toEqual([true, true]);
  });

  it('YandexBot is a bot', () => {
    expect(isBot(YANDEXBOT)).toBe(true);
  });

  it('curl, wget and python-requests are bots', () => {
    expect(['curl/8.5.0', 'Wget/1.21.4', 'python-requests/2.32.3'].map(isBot)).toEqual([true, true, true]);
  });

  it('headless Chrome is a bot', () => {
    expect(isBot(HEADLESS)).toBe(true);
  });

  it('an empty or blank user agent is a bot', () => {
    expect([isBot(''), isBot('   ')]).toEqual([true, true]);
  });
});
