import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_REFERRER, referrerInfo } from '../testing/enrichment.js';
import { DATA_DIR } from './data-dir.js';
import { classifyReferrer, createReferrerClassifier, referrerCatalog } from './referrer.js';

const PAGE = 'https://example.ru/catalog/phones';

describe('classifyReferrer: direct and internal', () => {
  it('no referrer is direct', () => {
    expect(classifyReferrer('', PAGE)).toEqual(NO_REFERRER);
  });

  it('a blank referrer is direct', () => {
    expect(classifyReferrer('  ', PAGE)).toEqual(NO_REFERRER);
  });

  it('the same site is internal, with www. merged', () => {
    expect(classifyReferrer('https://www.example.ru/catalog?page=2', PAGE)).toEqual(
      referrerInfo({ traffic_type: 'internal', referer_domain: 'example.ru', referer_path: '/catalog' }),
    );
  });

  it('a subdomain of the site is internal', () => {
    expect(classifyReferrer('https://m.example.ru/', 'https://www.example.ru/')).toEqual(referrerInfo({ traffic_type: 'internal', referer_domain: 'm.example.ru', referer_path: '/' }));
  });

  it('the project site host decides, not the page host', () => {
    expect(classifyReferrer('https://example.ru/', 'https://example-ru.turbopages.org/example.ru/s/', 'www.example.ru').traffic_type).toBe('internal');
    expect(classifyReferrer('https://example.ru/', PAGE, 'https://shop.example.ru/').traffic_type).toBe('internal');
  });

  it('two sites on a shared hosting suffix are not internal (github.io is a public suffix)', () => {
    expect(classifyReferrer('https://other.github.io/post', 'https://me.github.io/')).toEqual(
      referrerInfo({ traffic_type: 'link', traffic_system: 'other.github.io', referer_domain: 'other.github.io', referer_path: '/post' }),
    );
  });
});

describe('classifyReferrer: search engines', () => {
  it('Yandex with text=', () => {
    expect(classifyReferrer('https://yandex.ru/search/?text=%D0%BA%D1%83%D0%BF%D0%B8%D1%82%D1%8C+%D1%81%D0%BB%D0%BE%D0%BD%D0%B0&lr=213', PAGE)).toEqual(
      referrerInfo({ traffic_type: 'search', traffic_system: 'yandex', search_system: 'yandex', search_phrase: 'купить слона', referer_domain: 'yandex.ru', referer_path: '/search/' }),
    );
  });

  it('Yandex as the origin only (its referrer policy) is search with an empty phrase', () => {
    expect(classifyReferrer('https://yandex.ru/', PAGE)).toEqual(
      referrerInfo({ traffic_type: 'search', traffic_system: 'yandex', search_system: 'yandex', referer_domain: 'yandex.ru', referer_path: '/' }),
    );
  });

  it('Yandex on ya.ru, yandex.com.tr, yandex.kz and the Yandex app', () => {
    expect(
      ['https://ya.ru/search/?text=weather', 'https://yandex.com.tr/search/?text=hava', 'https://www.yandex.kz/', 'android-app://ru.yandex.searchplugin/'].map((r) => {
        const c = classifyReferrer(r, PAGE);
        return [c.search_system, c.search_phrase];
      }),
    ).toEqual([['yandex', 'weather'], ['yandex', 'hava'], ['yandex', ''], ['yandex', '']]);
  });

  it('Google hides the query: the origin, an empty q and the /url redirect are search with an empty phrase', () => {
    expect(
      ['https://www.google.com/', 'https://www.google.co.uk/search?q=', 'https://www.google.ru/url?sa=t&rct=j&q=&esrc=s&source=web&cd=1&url=https%3A%2F%2Fexample.ru%2F'].map((r) => classifyReferrer(r, PAGE)),
    ).toEqual([
      referrerInfo({ traffic_type: 'search', traffic_system: 'google', search_system: 'google', referer_domain: 'google.com', referer_path: '/' }),
      referrerInfo({ traffic_type: 'search', traffic_system: 'google', search_system: 'google', referer_domain: 'google.co.uk', referer_path: '/search' }),
      referrerInfo({ traffic_type: 'search', traffic_system: 'google', search_system: 'google', referer_domain: 'google.ru', referer_path: '/url' }),
    ]);
  });

  it('Google with a phrase, on any country domain', () => {
    expect(classifyReferrer('https://www.google.com.ua/search?q=%D0%B2%D0%B5%D0%B1+%D0%B0%D0%BD%D0%B0%D0%BB%D0%B8%D1%82%D0%B8%D0%BA%D0%B0&hl=ru', PAGE)).toMatchObject({
      traffic_type: 'search',
      search_system: 'google',
      search_phrase: 'веб аналитика',
    });
  });

  it('the Google /url redirect with the target in q is not a phrase', () => {
    expect(classifyReferrer('https://www.google.com/url?q=https://example.ru/&sa=U', PAGE).search_phrase).toBe('');
  });

  it('Mail.ru search with q=', () => {
    expect(classifyReferrer('https://go.mail.ru/search?q=%D0%BF%D0%BE%D0%B3%D0%BE%D0%B4%D0%B0+%D0%B2+%D0%BC%D0%BE%D1%81%D0%BA%D0%B2%D0%B5&fm=1', PAGE)).toEqual(
      referrerInfo({ traffic_type: 'search', traffic_system: 'mail_ru', search_system: 'mail_ru', search_phrase: 'погода в москве', referer_domain: 'go.mail.ru', referer_path: '/search' }),
    );
  });

  it('a phrase in windows-1251 (old forms) is decoded', () => {
    expect(classifyReferrer('http://go.mail.ru/search?q=%EA%F3%EF%E8%F2%FC+%F1%EB%EE%ED%E0', PAGE).search_phrase).toBe('купить слона');
  });

  it('Bing', () => {
    expect(classifyReferrer('https://www.bing.com/search?q=Web+Analytics&form=QBLH', PAGE)).toEqual(
      referrerInfo({ traffic_type: 'search', traffic_system: 'bing', search_system: 'bing', search_phrase: 'web analytics', referer_domain: 'bing.com', referer_path: '/search' }),
    );
  });

  it('DuckDuckGo sends only its origin', () => {
    expect(classifyReferrer('https://duckduckgo.com/', PAGE)).toMatchObject({ traffic_type: 'search', search_system: 'duckduckgo', search_phrase: '' });
  });

  it('Rambler with query=', () => {
    expect(classifyReferrer('https://nova.rambler.ru/search?query=%D1%81%D1%82%D0%B0%D1%82%D0%B8%D1%81%D1%82%D0%B8%D0%BA%D0%B0&utm_source=head', PAGE)).toMatchObject({
      traffic_type: 'search',
      search_system: 'rambler',
      search_phrase: 'статистика',
    });
  });

  it('Yahoo, Baidu and Ecosia', () => {
    expect(
      ['https://uk.search.yahoo.com/search?p=london+weather', 'https://www.baidu.com/s?wd=%E5%A4%A9%E6%B0%94', 'https://www.ecosia.org/search?q=trees'].map((r) => {
        const c = classifyReferrer(r, PAGE);
        return [c.search_system, c.search_phrase];
      }),
    ).toEqual([['yahoo', 'london weather'], ['baidu', '天气'], ['ecosia', 'trees']]);
  });

  it('other Yandex and Google services are sites, not search', () => {
    expect(['https://market.yandex.ru/product/1', 'https://mail.google.com/mail/u/0/'].map((r) => classifyReferrer(r, PAGE).traffic_type)).toEqual(['link', 'link']);
  });
});

describe('classifyReferrer: social networks and messengers', () => {
  it('VK on vk.com', () => {
    expect(classifyReferrer('https://vk.com/', PAGE)).toEqual(referrerInfo({ traffic_type: 'social', traffic_system: 'vk', social_network: 'vk', referer_domain: 'vk.com', referer_path: '/' }));
  });

  it('VK mobile (m.vk.com) and its away.php link wrapper', () => {
    expect([classifyReferrer('https://m.vk.com/wall-1_2', PAGE), classifyReferrer('https://vk.com/away.php?to=https%3A%2F%2Fexample.ru%2F&cc_key=', PAGE)]).toEqual([
      referrerInfo({ traffic_type: 'social', traffic_system: 'vk', social_network: 'vk', referer_domain: 'm.vk.com', referer_path: '/wall-1_2' }),
      referrerInfo({ traffic_type: 'social', traffic_system: 'vk', social_network: 'vk', referer_domain: 'vk.com', referer_path: '/away.php' }),
    ]);
  });

  it('Odnoklassniki', () => {
    expect(classifyReferrer('https://ok.ru/group/70000001234567/topic/155', PAGE)).toMatchObject({ traffic_type: 'social', social_network: 'ok' });
  });

  it('Facebook link shim, X short links, YouTube, Habr', () => {
    expect(
      ['https://l.facebook.com/l.php?u=https%3A%2F%2Fexample.ru%2F', 'https://t.co/AbCdEf123', 'https://www.youtube.com/', 'https://habr.com/ru/articles/812345/'].map((r) => classifyReferrer(r, PAGE).social_network),
    ).toEqual(['facebook', 'x', 'youtube', 'habr']);
  });

  it('Telegram: t.me, web.telegram.org and the Android app', () => {
    expect([
      classifyReferrer('https://t.me/', PAGE),
      classifyReferrer('https://web.telegram.org/k/', PAGE),
      classifyReferrer('android-app://org.telegram.messenger/', PAGE),
    ]).toEqual([
      referrerInfo({ traffic_type: 'messenger', traffic_system: 'telegram', message_system: 'telegram', referer_domain: 't.me', referer_path: '/' }),
      referrerInfo({ traffic_type: 'messenger', traffic_system: 'telegram', message_system: 'telegram', referer_domain: 'web.telegram.org', referer_path: '/k/' }),
      referrerInfo({ traffic_type: 'messenger', traffic_system: 'telegram', message_system: 'telegram', referer_domain: 'org.telegram.messenger' }),
    ]);
  });

  it('WhatsApp, Viber and MAX', () => {
    expect(['https://web.whatsapp.com/', 'android-app://com.viber.voip/', 'https://web.max.ru/'].map((r) => classifyReferrer(r, PAGE).message_system)).toEqual(['whatsapp', 'viber', 'max']);
  });
});

describe('classifyReferrer: recommendations, news, exchanges', () => {
  it('Dzen on dzen.ru and on the old zen.yandex.ru', () => {
    expect([classifyReferrer('https://dzen.ru/a/ZkQ1a2b3c4d5e6f7', PAGE), classifyReferrer('https://zen.yandex.ru/media/example/statia-5f1a', PAGE)]).toEqual([
      referrerInfo({ traffic_type: 'recommend', traffic_system: 'dzen', recom_system: 'dzen', referer_domain: 'dzen.ru', referer_path: '/a/ZkQ1a2b3c4d5e6f7' }),
      referrerInfo({ traffic_type: 'recommend', traffic_system: 'dzen', recom_system: 'dzen', referer_domain: 'zen.yandex.ru', referer_path: '/media/example/statia-5f1a' }),
    ]);
  });

  it('Pulse', () => {
    expect(classifyReferrer('https://pulse.mail.ru/article/123', PAGE)).toMatchObject({ traffic_type: 'recommend', recom_system: 'pulse' });
  });

  it('Yandex News on dzen.ru/news and yandex.ru/news is a news aggregator, not Dzen or search', () => {
    expect([classifyReferrer('https://dzen.ru/news/story/Example--abc123', PAGE), classifyReferrer('https://yandex.ru/news/story/Example--abc123?lang=ru', PAGE)]).toEqual([
      referrerInfo({ traffic_type: 'aggrnews', traffic_system: 'yandex_news', aggrnews_system: 'yandex_news', referer_domain: 'dzen.ru', referer_path: '/news/story/Example--abc123' }),
      referrerInfo({ traffic_type: 'aggrnews', traffic_system: 'yandex_news', aggrnews_system: 'yandex_news', referer_domain: 'yandex.ru', referer_path: '/news/story/Example--abc123' }),
    ]);
  });

  it('"/newsletter" on Yandex is not the news path', () => {
    expect(classifyReferrer('https://yandex.ru/newsletter', PAGE).traffic_type).toBe('search');
  });

  it('Google News, Mail.ru News, Rambler News', () => {
    expect(['https://news.google.com/', 'https://news.mail.ru/politics/12345/', 'https://news.rambler.ru/world/12345-title/'].map((r) => classifyReferrer(r, PAGE).aggrnews_system)).toEqual(['google_news', 'mail_news', 'rambler_news']);
  });

  it('SMI2 is an exchange network', () => {
    expect(classifyReferrer('https://smi2.ru/newdata/news?ad=123&bl=456', PAGE)).toMatchObject({ traffic_type: 'exchange', exchange_system: 'smi2', traffic_system: 'smi2' });
  });
});

describe('classifyReferrer: advertising and QR from the page address', () => {
  it('a Yandex Direct click: yclid and utm_medium=cpc, from a Yandex search page', () => {
    expect(classifyReferrer('https://yandex.ru/', 'https://example.ru/?utm_source=yandex&utm_medium=cpc&utm_campaign=12345&yclid=4820019873456128000')).toEqual(
      referrerInfo({ traffic_type: 'ad', traffic_system: 'yandex_direct', ad_system: 'yandex_direct', referer_domain: 'yandex.ru', referer_path: '/' }),
    );
  });

  it('yclid alone is Yandex Direct, even with no referrer', () => {
    expect(classifyReferrer('', 'https://example.ru/?yclid=4820019873456128000')).toEqual(referrerInfo({ traffic_type: 'ad', traffic_system: 'yandex_direct', ad_system: 'yandex_direct' }));
  });

  it('gclid is Google Ads', () => {
    expect(classifyReferrer('https://www.google.com/', 'https://example.ru/?gclid=Cj0KCQjw').ad_system).toBe('google_ads');
  });

  it('utm_medium=cpc names the system by utm_source', () => {
    expect(['vk', 'mytarget', 'Telegram', 'google'].map((s) => classifyReferrer('', `https://example.ru/?utm_source=${s}&utm_medium=cpc`).ad_system)).toEqual(['vk_ads', 'mytarget', 'telegram_ads', 'google_ads']);
  });

  it('a paid medium from an unknown source keeps the source as the system', () => {
    expect(classifyReferrer('https://partner.example.com/', 'https://example.ru/?utm_source=Partner_Net&utm_medium=CPM')).toEqual(
      referrerInfo({ traffic_type: 'ad', traffic_system: 'partner_net', ad_system: 'partner_net', referer_domain: 'partner.example.com', referer_path: '/' }),
    );
  });

  it('an unpaid medium is not advertising: the referrer decides', () => {
    expect(classifyReferrer('https://vk.com/', 'https://example.ru/?utm_source=vk&utm_medium=social').traffic_type).toBe('social');
  });

  it('fbclid (added to every Facebook link) is not advertising', () => {
    expect(classifyReferrer('https://l.facebook.com/', 'https://example.ru/?fbclid=IwAR0abc').traffic_type).toBe('social');
  });

  it('an _openstat tag is advertising, named by its service', () => {
    const tag = Buffer.from('direct.yandex.ru;12345;67890;search').toString('base64');
    expect(classifyReferrer('', `https://example.ru/?_openstat=${tag}`)).toEqual(referrerInfo({ traffic_type: 'ad', traffic_system: 'yandex_direct', ad_system: 'yandex_direct' }));
  });

  it('a click through an ad server is advertising with no tags at all', () => {
    expect(classifyReferrer('https://googleads.g.doubleclick.net/pagead/ads?client=1', PAGE)).toMatchObject({ traffic_type: 'ad', ad_system: 'google_ads' });
  });

  it('a QR code tagged by utm_medium, named by utm_source', () => {
    expect(classifyReferrer('', 'https://example.ru/promo?utm_source=poster_metro&utm_medium=qr&utm_campaign=spring')).toEqual(referrerInfo({ traffic_type: 'qr', traffic_system: 'poster_metro', qr_system: 'poster_metro' }));
  });

  it('a QR code tagged by utm_source=qr, or by a qr=1 parameter', () => {
    expect([classifyReferrer('', 'https://example.ru/?utm_source=qr'), classifyReferrer('', 'https://example.ru/menu?qr=1')].map((c) => [c.traffic_type, c.qr_system])).toEqual([
      ['qr', 'qr'],
      ['qr', ''],
    ]);
  });

  it('a paid tag wins over a QR tag', () => {
    expect(classifyReferrer('', 'https://example.ru/?utm_medium=qr&yclid=1').traffic_type).toBe('ad');
  });
});

describe('classifyReferrer: links', () => {
  it('another site is a link, its domain the system', () => {
    expect(classifyReferrer('https://lenta.ru/news/2025/06/01/example/?from=main', PAGE)).toEqual(
      referrerInfo({ traffic_type: 'link', traffic_system: 'lenta.ru', referer_domain: 'lenta.ru', referer_path: '/news/2025/06/01/example/' }),
    );
  });

  it('an unparsable or non-web referrer is a link with no domain', () => {
    expect([classifyReferrer('not a url', PAGE), classifyReferrer('chrome-extension://abc/page.html', PAGE)]).toEqual([referrerInfo({ traffic_type: 'link' }), referrerInfo({ traffic_type: 'link' })]);
  });

  it('an unknown Android app is a link from that app', () => {
    expect(classifyReferrer('android-app://com.example.reader/', PAGE)).toEqual(referrerInfo({ traffic_type: 'link', traffic_system: 'com.example.reader', referer_domain: 'com.example.reader' }));
  });
});

describe('the tables', () => {
  const copyTables = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'referrers-'));
    cpSync(join(DATA_DIR, 'referrers'), dir, { recursive: true });
    return dir;
  };

  it('a new entry in a JSON file is picked up without code changes', () => {
    const dir = copyTables();
    writeFileSync(
      join(dir, 'exchange.json'),
      JSON.stringify({ traffic_type: 'exchange', systems: [{ id: 'newnet', name: 'Новая сеть', hosts: ['*.newnet.example'] }] }),
    );
    const classifier = createReferrerClassifier({ dir });
    expect(classifier.classifyReferrer('https://cdn.newnet.example/click?id=1', PAGE)).toMatchObject({ traffic_type: 'exchange', exchange_system: 'newnet' });
    expect(classifier.catalog()).toContainEqual({ traffic_type: 'exchange', id: 'newnet', name: 'Новая сеть' });
  });

  it('a malformed table stops the start with the file named', () => {
    const dir = copyTables();
    writeFileSync(join(dir, 'social.json'), JSON.stringify({ traffic_type: 'social', systems: [{ id: 'x2', name: 'X2', host: ['x2.com'] }] }));
    expect(() => createReferrerClassifier({ dir })).toThrow('referrer table social.json: systems[0]: unknown field "host"');
  });

  it('a host claimed by two systems is refused', () => {
    const dir = copyTables();
    writeFileSync(join(dir, 'exchange.json'), JSON.stringify({ traffic_type: 'exchange', systems: [{ id: 'fake', name: 'Fake', hosts: ['vk.com'] }] }));
    expect(() => createReferrerClassifier({ dir })).toThrow(/"vk.com" of (fake|vk) is already/);
  });

  it('the catalog lists every system with its Russian name', () => {
    const catalog = referrerCatalog();
    expect(catalog).toContainEqual({ traffic_type: 'search', id: 'yandex', name: 'Яндекс' });
    expect(catalog).toContainEqual({ traffic_type: 'social', id: 'vk', name: 'ВКонтакте' });
    expect(catalog).toContainEqual({ traffic_type: 'ad', id: 'yandex_direct', name: 'Яндекс Директ' });
    expect(new Set(catalog.map((c) => `${c.traffic_type}/${c.id}`)).size).toBe(catalog.length);
  });
});
