import { MOSCOW_OFFSET_MS } from '@stat/schemas';
import { Weighted, zipfWeights, type Random } from './random.js';

/**
 * The demo site: a Russian news and features site. Articles appear every day and are read most
 * in their first days; some (guides, explainers) are found by search for months. An article is a
 * pure function of its publication day and its number that day, so nothing is stored.
 */

/** A section of the site: its address, name, headline stems and the search phrases that lead to it. */
export interface Section {
  slug: string;
  title: string;
  /** share of the site's articles */
  weight: number;
  /** headlines; {in} = a city in the prepositional case, {n} = a number */
  stems: readonly string[];
  /** what people type into Yandex or Google to find these articles (lower case, as classified) */
  phrases: readonly string[];
}

export const SECTIONS: readonly Section[] = [
  {
    slug: 'novosti', title: 'Новости', weight: 22,
    stems: [
      'В {in} открыли новую станцию метро', 'Синоптики пообещали аномальное тепло в {in}', 'В {in} изменят схему движения транспорта',
      'Что известно о пожаре в {in}', 'В {in} задержали подозреваемых в мошенничестве', 'Главное к утру: {n} событий дня',
      'Госдума приняла закон о маркетплейсах', 'В {in} ограничат движение на выходных',
    ],
    phrases: ['новости сегодня', 'главные новости дня', 'последние новости россии', 'происшествия', 'новая станция метро', 'погода на неделю'],
  },
  {
    slug: 'ekonomika', title: 'Экономика', weight: 14,
    stems: [
      'ЦБ сохранил ключевую ставку: что будет с вкладами', 'Курс доллара: прогноз аналитиков на неделю', 'Как изменятся налоги с 1 января',
      'Цены на бензин в {in} выросли на {n}%', 'Какие вклады выгоднее открыть сейчас', 'Ипотека с господдержкой: новые условия',
      'Пенсии проиндексируют на {n}%', 'Как вернуть налоговый вычет: инструкция',
    ],
    phrases: ['курс доллара', 'ключевая ставка цб', 'прогноз курса рубля', 'налоговый вычет', 'индексация пенсий', 'вклады под высокий процент', 'цены на бензин'],
  },
  {
    slug: 'tehnologii', title: 'Технологии', weight: 10,
    stems: [
      'Обзор смартфона: {n} часов без подзарядки', 'Как ускорить Wi-Fi дома: {n} способов', 'Российские маркетплейсы запустили новые сервисы',
      'Почему тормозит смартфон и что делать', 'Нейросети в работе: {n} полезных сервисов', 'Как защитить аккаунт от взлома',
      'В {in} запустили сеть 5G в тестовом режиме', 'Что купить на распродаже: {n} гаджетов',
    ],
    phrases: ['какой смартфон купить', 'как ускорить wi-fi', 'тормозит телефон что делать', 'нейросеть бесплатно', 'как защитить аккаунт'],
  },
  {
    slug: 'obshchestvo', title: 'Общество', weight: 12,
    stems: [
      'Какие праздники ждут россиян в декабре', 'Как оформить пособие: пошаговая инструкция', 'В {in} продлили работу катков до ночи',
      'Школьные каникулы: даты на учебный год', 'Новые правила для водителей с {n} декабря', 'Опрос: {n}% россиян планируют отпуск дома',
      'В {in} открылся новый парк', 'Как записаться к врачу через Госуслуги',
    ],
    phrases: ['праздники в декабре', 'школьные каникулы', 'как оформить пособие', 'запись к врачу госуслуги', 'выходные в новый год'],
  },
  {
    slug: 'sport', title: 'Спорт', weight: 10,
    stems: [
      '«Зенит» обыграл «Спартак» в центральном матче тура', 'Сборная России по хоккею объявила состав', 'Расписание матчей РПЛ на выходные',
      'В {in} пройдёт этап Кубка России', 'КХЛ: итоги игрового дня', 'Трансферы зимы: главные слухи',
      'Марафон в {in} собрал {n} тысяч участников', 'Фигурное катание: результаты этапа Гран-при',
    ],
    phrases: ['зенит спартак', 'расписание рпл', 'кхл результаты', 'сборная россии по хоккею', 'гран-при фигурное катание'],
  },
  {
    slug: 'kultura', title: 'Культура', weight: 6,
    stems: [
      'Лучшие фильмы месяца: {n} премьер', 'Что посмотреть на выходных в {in}', 'Новый сезон сериала выйдет в декабре',
      'В {in} открылась выставка импрессионистов', 'Книги года: {n} романов, о которых говорят', 'Концерты недели в {in}',
      'Театральная премьера сезона', 'Музеи в {in} будут работать бесплатно',
    ],
    phrases: ['что посмотреть на выходных', 'фильмы декабря', 'выставки москвы', 'концерты недели', 'лучшие книги года'],
  },
  {
    slug: 'nauka', title: 'Наука', weight: 5,
    stems: [
      'Учёные нашли способ замедлить старение клеток', 'Телескоп снял самую далёкую галактику', 'Северное сияние увидят жители {n} регионов',
      'Российские физики создали новый материал', 'Археологи нашли древнее поселение на Урале', 'Как нейросеть помогает врачам',
      'Метеоритный поток: когда смотреть', 'Климат меняется быстрее прогнозов',
    ],
    phrases: ['северное сияние прогноз', 'метеоритный поток', 'телескоп джеймс уэбб', 'новости науки'],
  },
  {
    slug: 'avto', title: 'Авто', weight: 7,
    stems: [
      'Цены на новые автомобили в {in}', 'Новые штрафы для водителей: что изменится', 'Тест-драйв: китайский кроссовер за {n} млн',
      'Как подготовить машину к зиме', 'ОСАГО подорожает: на сколько', 'Самые продаваемые машины месяца',
      'Платные дороги: новые тарифы', 'Как проверить автомобиль перед покупкой',
    ],
    phrases: ['новые штрафы для водителей', 'осаго подорожает', 'как подготовить машину к зиме', 'цены на автомобили', 'платные дороги тарифы'],
  },
  {
    slug: 'zdorovye', title: 'Здоровье', weight: 8,
    stems: [
      'Грипп и ОРВИ: как не заболеть', 'Врач назвал {n} привычек для здоровья сердца', 'Сколько нужно спать взрослому',
      'Витамин D зимой: кому он нужен', 'Эпидемия гриппа в {in}: что известно', 'Как снизить давление без таблеток',
      'Питание на каждый день: {n} правил', 'Когда делать прививку от гриппа',
    ],
    phrases: ['как не заболеть гриппом', 'витамин д зимой', 'как снизить давление', 'сколько нужно спать', 'прививка от гриппа'],
  },
  {
    slug: 'nedvizhimost', title: 'Недвижимость', weight: 6,
    stems: [
      'Цены на квартиры в {in}: итоги месяца', 'Ипотека для семей: кто может получить', 'Аренда жилья подорожала на {n}%',
      'Как проверить застройщика перед покупкой', 'Новостройки года: где строят больше', 'Вторичка или новостройка: что выгоднее',
      'Налог на недвижимость: сроки уплаты', 'Как продать квартиру быстро',
    ],
    phrases: ['семейная ипотека', 'цены на квартиры', 'как проверить застройщика', 'налог на квартиру', 'аренда квартир цены'],
  },
];

const CITIES_IN = [
  'Москве', 'Петербурге', 'Новосибирске', 'Екатеринбурге', 'Казани', 'Нижнем Новгороде', 'Самаре', 'Краснодаре', 'Ростове-на-Дону',
  'Уфе', 'Перми', 'Воронеже', 'Челябинске', 'Омске', 'Красноярске', 'Калининграде',
];

/** Tags: address and name. */
const TAGS: readonly (readonly [string, string])[] = [
  ['kurs-dollara', 'Курс доллара'], ['klyuchevaya-stavka', 'Ключевая ставка'], ['ipoteka', 'Ипотека'], ['pogoda', 'Погода'],
  ['rpl', 'РПЛ'], ['gripp', 'Грипп'], ['nalogi', 'Налоги'], ['smartfony', 'Смартфоны'], ['pensii', 'Пенсии'], ['zhkh', 'ЖКХ'],
];

/** Articles published a day; an article's rank that day decides its share of the day's readers. */
const ARTICLES_PER_DAY = 36;
const ARTICLE_RANK = new Weighted(zipfWeights(ARTICLES_PER_DAY, 1.05).map((w, i) => [i, w] as const));
const SECTION_PICK = new Weighted(SECTIONS.map((s, i) => [i, s.weight] as const));
const DAY = 86_400_000;
/** Article numbers go up by day, like a real site's (RIA-style addresses /YYYYMMDD/section-NUMBER.html). */
const FIRST_ARTICLE = 1_900_000;

const SITE_NAME = 'Демо-медиа';

/** The site's authors: each article is written by one of them. */
const AUTHORS: readonly string[] = [
  'Анна Петрова', 'Игорь Соколов', 'Мария Волкова', 'Дмитрий Орлов', 'Елена Кузнецова', 'Сергей Лебедев', 'Ольга Морозова',
];

/** An article's material as its page publishes it (og:title, author, article:published_time): the counter's mt, ma, mp. */
interface Material {
  mt: string;
  ma: string;
  mp: string;
}

/** A page of the site. */
export interface Page {
  kind: 'home' | 'section' | 'article' | 'tag' | 'search' | 'subscribe' | 'about';
  /** the path with its query, no host */
  path: string;
  title: string;
  /** the section index, for articles and section pages; -1 otherwise */
  section: number;
  /** minutes an attentive reader needs for an article; 0 for other pages */
  readMinutes: number;
  /** an article's material, which the full counter sends on every hit of its page view */
  material?: Material;
}

/** A 32-bit mix of two integers (murmur3's finaliser): an article's facts from its day and number. */
function mix(a: number, b: number): number {
  let h = (Math.imul(a, 0x9e3779b1) ^ b) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The Moscow day number (days since 1970-01-01 in Moscow) of an instant. */
export function moscowDay(epochMs: number): number {
  return Math.floor((epochMs + MOSCOW_OFFSET_MS) / DAY);
}

/** Articles made recently: readers open the same few hundred again and again. */
const articles = new Map<number, Page>();

/** The article published on Moscow day `day` with number `k` (0 = that day's most read). */
function article(day: number, k: number): Page {
  const key = day * ARTICLES_PER_DAY + k;
  let page = articles.get(key);
  if (page === undefined) {
    if (articles.size >= 20_000) articles.clear();
    page = makeArticle(day, k);
    articles.set(key, page);
  }
  return page;
}

function makeArticle(day: number, k: number): Page {
  const h = mix(day, k);
  const section = SECTION_PICK.at(mix(h, 0x51) / 4294967296);
  const s = SECTIONS[section] as Section;
  const stem = s.stems[h % s.stems.length] as string;
  const title = stem.replace('{in}', CITIES_IN[(h >>> 8) % CITIES_IN.length] as string).replace('{n}', String(3 + ((h >>> 16) % 17)));
  const isoDate = new Date(day * DAY).toISOString().slice(0, 10);
  const date = isoDate.replace(/-/g, '');
  // Published the evening before its Moscow day (20:00 to 23:59), so that all its readers,
  // from the first minute of its day, come after it.
  const eve = new Date((day - 1) * DAY).toISOString().slice(0, 10);
  const published = `${eve}T${20 + ((h >>> 20) % 4)}:${String((h >>> 12) % 60).padStart(2, '0')}:00+03:00`;
  return {
    kind: 'article',
    path: `/${date}/${s.slug}-${FIRST_ARTICLE + (day % 100_000) * ARTICLES_PER_DAY + k}.html`,
    title: `${title} — ${SITE_NAME}`,
    section,
    readMinutes: 1.5 + ((h >>> 4) % 8) * 0.5,
    material: { mt: title, ma: AUTHORS[(h >>> 24) % AUTHORS.length] as string, mp: published },
  };
}

/**
 * An article someone opens on Moscow day `today`: most readers want today's and yesterday's news
 * (`fresh`); search brings older articles too, some of them a year old.
 */
export function pickArticle(random: Random, today: number, fresh: boolean): Page {
  let age: number;
  const r = random.next();
  if (fresh) age = r < 0.93 ? Math.floor(random.exponential(0.7)) : random.int(14);
  else age = r < 0.45 ? Math.floor(random.exponential(1.5)) : r < 0.8 ? random.int(60) : random.int(365);
  return article(today - Math.min(age, 365), ARTICLE_RANK.pick(random));
}

/** An article of the same section as `page`, from the related block. */
export function relatedArticle(random: Random, today: number, page: Page): Page {
  for (let i = 0; i < 6; i++) {
    const next = pickArticle(random, today, random.chance(0.7));
    if (next.section === page.section && next.path !== page.path) return next;
  }
  return pickArticle(random, today, true);
}

export const HOME: Page = { kind: 'home', path: '/', title: `${SITE_NAME} — новости России и мира`, section: -1, readMinutes: 0 };

export function sectionPage(index: number, pageNumber = 1): Page {
  const s = SECTIONS[index] as Section;
  return {
    kind: 'section',
    path: pageNumber > 1 ? `/${s.slug}/?page=${pageNumber}` : `/${s.slug}/`,
    title: `${s.title} — ${SITE_NAME}`,
    section: index,
    readMinutes: 0,
  };
}

export function tagPage(random: Random): Page {
  const [slug, name] = random.of(TAGS);
  return { kind: 'tag', path: `/tags/${slug}/`, title: `${name} — ${SITE_NAME}`, section: -1, readMinutes: 0 };
}

export function searchPage(random: Random): Page {
  const phrase = random.of(random.of(SECTIONS).phrases);
  return {
    kind: 'search',
    path: `/search?q=${encodeURIComponent(phrase)}`,
    title: `Поиск: ${phrase} — ${SITE_NAME}`,
    section: -1,
    readMinutes: 0,
  };
}

export const SUBSCRIBE: Page = { kind: 'subscribe', path: '/subscribe', title: `Подписка на рассылку — ${SITE_NAME}`, section: -1, readMinutes: 0 };
export const ABOUT: Page = { kind: 'about', path: '/about', title: `О редакции — ${SITE_NAME}`, section: -1, readMinutes: 0 };

/** Sites the readers leave to by a link in an article. */
export const OUTBOUND = [
  'https://www.gosuslugi.ru/', 'https://www.cbr.ru/currency_base/daily/', 'https://t.me/demo_media', 'https://vk.com/demo_media',
  'https://dzen.ru/demo_media', 'https://www.nalog.gov.ru/rn77/', 'https://www.championat.com/football/', 'https://www.kinopoisk.ru/',
] as const;
