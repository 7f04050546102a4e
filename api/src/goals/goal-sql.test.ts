import { describe, expect, it } from 'vitest';
import type { ClickHouseClient } from '@stat/storage';
import { AUTOGOAL_TEMPLATES, eventKeyOf, type DimensionFilterRule, type GoalBody } from '@stat/schemas';
import { compileGoalCounts, goalCondition, goalCountsOf, type GoalCounts } from './goal-sql.js';
import { Params, ReportQueryError } from '../engine/index.js';
import { useChdb } from '../testing/chdb.js';

// Needs: chDB (in-process). Goals counted over stored events, each number below counted by hand.
const PROJECT = 77;
const DAY = '2026-11-10';
const LATER = '2026-11-12';

interface Fixture {
  session: number;
  visitor: string;
  day?: string;
  type: 'pageview' | 'event' | 'outbound';
  path: string;
  eventClass?: string;
  name?: string;
  params?: Record<string, string>;
  link?: string;
}

/**
 * Visit 1 (visitor a): the catalogue, a search for «слон», a price list downloaded, a link to another site.
 * Visit 2 (visitor b): the home page, the feedback form sent, the phone number clicked, a sign-up on plan pro.
 * Visit 3 (visitor a): the catalogue, a second download, a sign-up on plan free, the e-mail clicked, read to the end.
 * Visit 4 (visitor c): a search by `text` on its second page, and the site's own custom event named download (class cv).
 * Visit 5 (visitor d, two days later, outside the period): the catalogue.
 */
const EVENTS: Fixture[] = [
  { session: 1, visitor: 'a', type: 'pageview', path: '/catalog' },
  { session: 1, visitor: 'a', type: 'pageview', path: '/search?q=слон' },
  { session: 1, visitor: 'a', type: 'outbound', path: '/search?q=слон', name: 'download', link: 'https://site.example/price.pdf' },
  { session: 1, visitor: 'a', type: 'outbound', path: '/search?q=слон', name: 'outbound', link: 'https://other.example/' },
  { session: 2, visitor: 'b', type: 'pageview', path: '/' },
  { session: 2, visitor: 'b', type: 'event', path: '/', eventClass: 'base', name: 'form', params: { f: 'feedback' } },
  { session: 2, visitor: 'b', type: 'outbound', path: '/', name: 'tel', link: 'tel:+74950000000' },
  { session: 2, visitor: 'b', type: 'event', path: '/', eventClass: 'cv', name: 'signup', params: { plan: 'pro' } },
  { session: 3, visitor: 'a', type: 'pageview', path: '/catalog' },
  { session: 3, visitor: 'a', type: 'outbound', path: '/catalog', name: 'download', link: 'https://site.example/list.zip' },
  { session: 3, visitor: 'a', type: 'event', path: '/catalog', eventClass: 'cv', name: 'signup', params: { plan: 'free' } },
  { session: 3, visitor: 'a', type: 'outbound', path: '/catalog', name: 'mailto', link: 'mailto:shop@site.example' },
  { session: 3, visitor: 'a', type: 'event', path: '/catalog', eventClass: 'base', name: 'scroll' },
  { session: 4, visitor: 'c', type: 'pageview', path: '/search?text=x&page=2' },
  { session: 4, visitor: 'c', type: 'event', path: '/search?text=x&page=2', eventClass: 'cv', name: 'download' },
  { session: 5, visitor: 'd', day: LATER, type: 'pageview', path: '/catalog' },
];

function row(f: Fixture, i: number): Record<string, unknown> {
  const url = `https://site.example${f.path}`;
  const day = f.day ?? DAY;
  return {
    event_key: eventKeyOf(crypto.randomUUID()),
    project_id: PROJECT,
    event_type: f.type,
    event_class: f.eventClass ?? 'base',
    event_name: f.name ?? f.type,
    event_params: f.params ?? {},
    link_url: f.link ?? '',
    ts: `${day} 09:00:${String(i).padStart(2, '0')}`,
    event_date: day,
    visitor_id: f.visitor,
    session_id: f.session,
    session_start: `${day} 09:00:00`,
    event_number: i + 1,
    url,
    url_no_args: url.split('?')[0],
  };
}

let clickhouse: ClickHouseClient;

useChdb('goal-sql', () => EVENTS.map(row), (client) => {
  clickhouse = client;
});

async function countsOf(bodies: GoalBody[], dateEnd = DAY): Promise<GoalCounts[]> {
  const { query, params } = compileGoalCounts(PROJECT, bodies, DAY, dateEnd);
  const answer = await clickhouse.query({ query, query_params: params, format: 'JSONEachRow' });
  const [r] = await answer.json<Record<string, unknown>>();
  return goalCountsOf(r, bodies.length);
}

async function counts(rules: DimensionFilterRule[], dateEnd = DAY): Promise<GoalCounts> {
  const [one] = await countsOf([{ dimension_filters: rules }], dateEnd);
  return one!;
}

const template = (title: string): GoalBody => {
  const found = AUTOGOAL_TEMPLATES.find((t) => t.title === title);
  if (!found) throw new Error(`no autogoal ${title}`);
  return found.body;
};

describe('a goal counts the stored events that meet all its conditions', () => {
  const CATALOG_VIEWS: DimensionFilterRule[] = [
    { key: 'event_type', op: '=', value: 'pageview' },
    { key: 'url', op: 'like', value: '*/catalog' },
  ];

  it('a page url: the catalogue was viewed in visits 1 and 3, by visitor a (visit 5 is after the period)', async () => {
    expect(await counts(CATALOG_VIEWS)).toEqual({ reaches: 2, visits: 2, visitors: 1 });
  });

  it('the same goal over a period that takes in visit 5 counts visitor d too', async () => {
    expect(await counts(CATALOG_VIEWS, LATER)).toEqual({ reaches: 3, visits: 3, visitors: 2 });
  });

  it('a url alone means the page views of that url: visits 1 and 3 viewed the catalogue once each, its four events of visit 3 do not count', async () => {
    expect(await counts([{ key: 'url', op: 'like', value: '*/catalog' }])).toEqual({ reaches: 2, visits: 2, visitors: 1 });
  });

  it('a url with an event: the sign-up made on the catalogue (visit 3) and not the page view', async () => {
    expect(
      await counts([
        { key: 'url', op: 'like', value: '*/catalog' },
        { key: 'event_name', op: '=', value: 'signup' },
      ]),
    ).toEqual({ reaches: 1, visits: 1, visitors: 1 });
  });

  it('any condition that does not choose an event means page views: the pages of visitor b are one view of the home page', async () => {
    expect(await counts([{ key: 'url_no_args', op: '=', value: 'https://site.example/' }])).toEqual({ reaches: 1, visits: 1, visitors: 1 });
  });

  it('several goals are counted by one query, each as when counted alone, and a goal nothing met counts zeros', async () => {
    const bodies: GoalBody[] = [
      { dimension_filters: CATALOG_VIEWS },
      { dimension_filters: [{ key: 'event_name', op: '=', value: 'signup', extra: { eventClass: 'cv' } }] },
      { dimension_filters: [{ key: 'url', op: 'like', value: '*/nowhere' }] },
      { dimension_filters: [{ key: 'event_type', op: '=', value: 'outbound' }] },
    ];
    expect(await countsOf(bodies, LATER)).toEqual([
      { reaches: 3, visits: 3, visitors: 2 },
      { reaches: 2, visits: 2, visitors: 2 },
      { reaches: 0, visits: 0, visitors: 0 },
      { reaches: 5, visits: 3, visitors: 2 },
    ]);
    const { query } = compileGoalCounts(PROJECT, bodies, DAY, LATER);
    expect(query.match(/FROM events/g)).toHaveLength(1);
  });

  it('an event class and name: the sign-ups of visits 2 and 3', async () => {
    expect(await counts([{ key: 'event_name', op: '=', value: 'signup', extra: { eventClass: 'cv' } }])).toEqual({ reaches: 2, visits: 2, visitors: 2 });
  });

  it('a custom event parameter: the sign-up on plan pro only (visit 2)', async () => {
    expect(
      await counts([
        { key: 'event_name', op: '=', value: 'signup' },
        { key: 'customer_params_value', op: '=', value: 'pro' },
      ]),
    ).toEqual({ reaches: 1, visits: 1, visitors: 1 });
  });

  it('a link to one site (external_url)', async () => {
    expect(await counts([{ key: 'external_url', op: 'like', value: '*other.example*' }])).toEqual({ reaches: 1, visits: 1, visitors: 1 });
  });

  it('every link click is an outbound hit: links away, files, the phone and the e-mail', async () => {
    expect(await counts([{ key: 'event_type', op: '=', value: 'outbound' }])).toEqual({ reaches: 5, visits: 3, visitors: 2 });
  });

  it('the autogoals, each on what the counter sends', async () => {
    const byTitle = async (title: string) => counts(template(title).dimension_filters);
    expect(await byTitle('Клик по внешней ссылке')).toEqual({ reaches: 1, visits: 1, visitors: 1 });
    // Visit 4's custom event named download is the site's own (class cv), not a file download.
    expect(await byTitle('Скачивание файла')).toEqual({ reaches: 2, visits: 2, visitors: 1 });
    expect(await byTitle('Отправка формы')).toEqual({ reaches: 1, visits: 1, visitors: 1 });
    expect(await byTitle('Клик по номеру телефона')).toEqual({ reaches: 1, visits: 1, visitors: 1 });
    expect(await byTitle('Клик по email')).toEqual({ reaches: 1, visits: 1, visitors: 1 });
    expect(await byTitle('Дочитывание статьи')).toEqual({ reaches: 1, visits: 1, visitors: 1 });
    // The page views with ?q= (visit 1) and ?text= (visit 4); the other events on those pages are not page views.
    expect(await byTitle('Поиск по сайту')).toEqual({ reaches: 2, visits: 2, visitors: 2 });
  });

  it('a goal on a dimension of visits (the entry page) is refused, not compiled', () => {
    expect(() => goalCondition({ dimension_filters: [{ key: 'entry_page', op: '=', value: '/' }] }, new Params())).toThrow(ReportQueryError);
  });

  it('a value travels as a parameter, never in the SQL text', () => {
    const p = new Params();
    const sql = goalCondition({ dimension_filters: [{ key: 'url', op: '=', value: "x' OR 1=1 --" }] }, p);
    expect(sql).toBe('event_type = {p0:String} AND url = {p1:String}');
    expect(p.values).toEqual({ p0: 'pageview', p1: "x' OR 1=1 --" });
  });
});
