import { describe, expect, it } from 'vitest';
import { checkBot } from './bot-check.js';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

describe('checkBot', () => {
  it('lets a browser through', () => {
    const hit = { accepted: { ua: CHROME }, siteHost: undefined };
    expect(checkBot(hit)).toEqual({ ok: hit });
  });

  it('drops a known crawler', () => {
    expect(checkBot({ accepted: { ua: GOOGLEBOT } })).toEqual({ drop: 'bot' });
  });

  it('drops a hit with no user agent', () => {
    expect(checkBot({ accepted: { ua: '' } })).toEqual({ drop: 'bot' });
  });
});
