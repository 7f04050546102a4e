import { describe, expect, it } from 'vitest';
import type { DimensionFilterRule, SavedFilter } from '@stat/schemas/filters';
import { titleError } from './TemplateForm';
import { FILTER_MENU, searchMenu } from './catalogue';
import { dimensionChips, metricChips, withoutChip } from './chips';
import { apiToForm, formToApi, fromPattern, ruleToApi, toPattern, type FilterBlock } from './form';
import { maskMetricText, metricValue, rowsToRules, rulesToRows } from './metricForm';
import { correctFilters, parseFilters, requestFilters, sameFilters, writeFilters } from './url';

const titleOf = (_key: string, value: string | number) => (value === 143 ? 'Россия' : String(value));

describe('form rules to api rules (spec 001 §4 "Filter value conversions")', () => {
  const v = (value: string | number) => ({ value, title: String(value) });
  it('checkbox: AND many equals, OR include, NOT exclude, NOT of one value not-equal', () => {
    expect(ruleToApi('browser_family', { kind: 'choice', op: 'AND', values: [v('Chrome'), v('Safari')] })).toEqual([
      { key: 'browser_family', op: '=', value: 'Chrome' },
      { key: 'browser_family', op: '=', value: 'Safari' },
    ]);
    expect(ruleToApi('geo_country', { kind: 'choice', op: 'OR', values: [v(143), v(149)] })).toEqual([{ key: 'geo_country', op: 'include', value: [143, 149] }]);
    expect(ruleToApi('os_family', { kind: 'choice', op: 'NOT', values: [v('iOS'), v('Android')] })).toEqual([{ key: 'os_family', op: 'exclude', value: ['iOS', 'Android'] }]);
    expect(ruleToApi('os_family', { kind: 'choice', op: 'NOT', values: [v('iOS')] })).toEqual([{ key: 'os_family', op: '!=', value: 'iOS' }]);
    expect(ruleToApi('os_family', { kind: 'choice', op: 'OR', values: [] })).toEqual([]);
  });

  it('textarea: like, multilike, multilikeand, nlike, nmultilike; @ is a case-insensitive contains', () => {
    expect(ruleToApi('url', { kind: 'text', op: 'OR', text: ' /news* \n\n' })).toEqual([{ key: 'url', op: 'like', value: '/news*' }]);
    expect(ruleToApi('url', { kind: 'text', op: 'OR', text: '/a\n/b' })).toEqual([{ key: 'url', op: 'multilike', value: ['/a', '/b'] }]);
    expect(ruleToApi('url', { kind: 'text', op: 'AND', text: '*a*\n*b*' })).toEqual([{ key: 'url', op: 'multilikeand', value: ['*a*', '*b*'] }]);
    expect(ruleToApi('title', { kind: 'text', op: 'NOT', text: '@Новости' })).toEqual([{ key: 'title', op: 'nlike', value: '@*Новости*' }]);
    expect(ruleToApi('title', { kind: 'text', op: 'NOT', text: 'a\nb' })).toEqual([{ key: 'title', op: 'nmultilike', value: ['a', 'b'] }]);
    expect(toPattern('@*x')).toBe('@*x*');
    expect(fromPattern(toPattern('@x'))).toBe('@x');
    expect(fromPattern('x*')).toBe('x*');
  });

  it('period: a whole number compared; an empty or non-digit value is no rule', () => {
    expect(ruleToApi('view_depth', { kind: 'number', op: '>=', value: '3' })).toEqual([{ key: 'view_depth', op: '>=', value: 3 }]);
    expect(ruleToApi('view_depth', { kind: 'number', op: '>=', value: '' })).toEqual([]);
    expect(ruleToApi('view_depth', { kind: 'number', op: '>=', value: '-1' })).toEqual([]);
  });

  it('the api rules read back as the same form (many equals one AND rule), and convert back to themselves', () => {
    const rules: DimensionFilterRule[] = [
      { key: 'browser_family', op: '=', value: 'Chrome' },
      { key: 'browser_family', op: '=', value: 'Safari' },
      { key: 'geo_country', op: 'include', value: [143] },
      { key: 'url', op: 'nmultilike', value: ['@*a*', '/b'] },
      { key: 'view_depth', op: '>', value: 2 },
      { key: 'browser_family', op: '!=', value: 'Opera' },
    ];
    const form = apiToForm(rules, titleOf);
    expect(form.map((b) => [b.key, b.type, b.rules.length])).toEqual([
      ['browser_family', 'checkbox', 2],
      ['geo_country', 'checkbox', 1],
      ['url', 'textarea', 1],
      ['view_depth', 'period', 1],
    ]);
    expect(form[2]?.rules[0]).toEqual({ kind: 'text', op: 'NOT', text: '@a\n/b' });
    // Block order groups a dimension's rules together; the set of rules is the same.
    expect(formToApi(form)).toEqual([rules[0], rules[1], rules[5], rules[2], rules[3], rules[4]]);
  });
});

describe('the event filter (spec 001 §4: event_class equals the class, plus value rules)', () => {
  const v = (value: string) => ({ value, title: value });
  it('adds the class rule and narrows the names to the class; reads back as one event rule', () => {
    const rules = ruleToApi('event_name', { kind: 'event', eventClass: 'cv', values: [v('signup'), v('buy')] });
    expect(rules).toEqual([
      { key: 'event_class', op: '=', value: 'cv' },
      { key: 'event_name', op: 'include', value: ['signup', 'buy'], extra: { eventClass: 'cv' } },
    ]);
    expect(ruleToApi('event_name', { kind: 'event', eventClass: 'cv', values: [v('buy')] })[1]).toEqual({ key: 'event_name', op: '=', value: 'buy', extra: { eventClass: 'cv' } });
    const form = apiToForm(rules, titleOf);
    expect(form).toEqual([{ key: 'event_name', type: 'event', rules: [{ kind: 'event', eventClass: 'cv', values: [v('signup'), v('buy')] }] }]);
    expect(formToApi(form)).toEqual(rules);
    expect(dimensionChips(form).map((c) => `${c.label}: ${c.text}`)).toEqual(['Название события: равно signup или buy (свои события)']);
    // No class chosen yet: no rule; a class alone is the class condition, read as a choice of event_class.
    expect(ruleToApi('event_name', { kind: 'event', eventClass: '', values: [] })).toEqual([]);
    const classOnly = apiToForm(ruleToApi('event_name', { kind: 'event', eventClass: 'ub', values: [] }), titleOf);
    expect(dimensionChips(classOnly).map((c) => `${c.label}: ${c.text}`)).toEqual(['Класс события: равно ub']);
    // A class with no name chosen, and a class the service does not know, read as they came.
    expect(dimensionChips([{ key: 'event_name', type: 'event', rules: [{ kind: 'event', eventClass: 'ec', values: [] }] }]).map((c) => c.text)).toEqual(['любое (электронная коммерция)']);
    expect(dimensionChips([{ key: 'event_name', type: 'event', rules: [{ kind: 'event', eventClass: 'zz', values: [v('x')] }] }]).map((c) => c.text)).toEqual(['равно x (zz)']);
  });
});

describe('chips (spec 001 §5 "Filter chips wording")', () => {
  const blocks: FilterBlock[] = apiToForm(
    [
      { key: 'geo_country', op: 'include', value: [143, 'x'] },
      { key: 'browser_family', op: '=', value: 'Chrome' },
      { key: 'browser_family', op: '=', value: 'Safari' },
      { key: 'os_family', op: 'exclude', value: ['iOS', 'Android'] },
      { key: 'os_family', op: '!=', value: 'Linux' },
      { key: 'view_depth', op: '>=', value: 3 },
      { key: 'session_number', op: '<', value: 2 },
      { key: 'url', op: 'multilike', value: ['/a*', '@*b*'] },
    ],
    titleOf,
  );
  it('reads равно … или, равно … и, не равно a, b (negative), comparisons in words', () => {
    expect(dimensionChips(blocks).map((c) => [`${c.label}: ${c.text}`, c.negative])).toEqual([
      ['Страна: равно Россия или x', false],
      ['Браузер: равно Chrome и Safari', false],
      ['Операционная система: не равно iOS, Android', true],
      ['Операционная система: не равно Linux', true],
      ['Глубина просмотра: больше или равно 3', false],
      ['Номер визита: меньше 2', false],
      ['Адрес страницы: равно /a* или @b', false],
    ]);
    expect(metricChips([{ key: 'visits', op: '>', value: 10.5 }, { key: 'page_views', op: '=', value: 3 }, { key: 'visitors', op: '<', value: 1 }]).map((c) => `${c.label}: ${c.text}`)).toEqual([
      'Визиты: больше 10,5',
      'Просмотры: равно 3',
      'Посетители: меньше 1',
    ]);
  });
  it('removing a chip removes its rule, and its block with the last rule', () => {
    const chips = dimensionChips(blocks);
    const noSafari = withoutChip(blocks, chips[1]!.id);
    expect(noSafari.map((b) => b.key)).not.toContain('browser_family');
    const oneOs = withoutChip(blocks, chips[3]!.id);
    expect(formToApi(oneOs).filter((r) => r.key === 'os_family')).toEqual([{ key: 'os_family', op: 'exclude', value: ['iOS', 'Android'] }]);
  });
});

describe('metric filters (spec 001 §4, §5 "Table filter inputs")', () => {
  it('masks input by unit and converts it: digits, a dot for a comma, percents capped at 99, mm:ss to seconds', () => {
    expect(maskMetricText('visits', '1 2a3')).toBe('123');
    expect(maskMetricText('avg_view_depth', '1,5.2')).toBe('1.52');
    expect(maskMetricText('avg_view_duration', '0130')).toBe('01:30');
    expect(metricValue('avg_view_duration', '01:30')).toBe(90);
    expect(metricValue('avg_view_duration', '01:75')).toBeNull();
    expect(metricValue('bounces', '150')).toBe(99);
    expect(metricValue('visits', '')).toBeNull();
    expect(metricValue('visits', '99999999999999999')).toBe(Number.MAX_SAFE_INTEGER);
    const rows = [
      { key: 'visits', op: '>', text: '10' },
      { key: 'avg_view_duration', op: '<', text: '02:05' },
      { key: 'page_views', op: '=', text: '' },
    ] as const;
    expect(rowsToRules(rows)).toEqual([
      { key: 'visits', op: '>', value: 10 },
      { key: 'avg_view_duration', op: '<', value: 125 },
    ]);
    expect(rulesToRows(rowsToRules(rows))).toEqual(rows.slice(0, 2));
    expect(metricChips([{ key: 'avg_view_duration', op: '<', value: 125 }, { key: 'bounces', op: '>', value: 20.5 }]).map((c) => `${c.label}: ${c.text}`)).toEqual([
      'Время просмотра страницы: меньше 02:05',
      'Отказы: больше 20,5%',
    ]);
  });
});

describe('filters in the URL (spec 001 §3, §5)', () => {
  const url = (params: Record<string, string>) => new URLSearchParams(params);
  it('keeps valid rules and reports no correction', () => {
    const rules = [{ key: 'geo_country', op: 'include', value: [143] }];
    const parsed = parseFilters(url({ globalFilters: JSON.stringify(rules), tableFilters: 'visits:>:10' }), ['visits', 'page_views']);
    expect(parsed).toEqual({ filters: { dimension: rules, metric: [{ key: 'visits', op: '>', value: 10 }] }, corrected: false });
    expect(requestFilters(parsed.filters)).toEqual({ dimension_filters: rules, metric_filters: [{ key: 'visits', op: '>', value: 10 }] });
  });
  it('drops broken JSON, unknown or not collected keys, unknown operators, values of the wrong shape', () => {
    expect(parseFilters(url({ globalFilters: '[{' }), ['visits'])).toEqual({ filters: { dimension: [], metric: [] }, corrected: true });
    const mixed = [
      { key: 'gender', op: '=', value: 'm' },
      { key: 'nope', op: '=', value: 1 },
      { key: 'url', op: 'regexp', value: 'x' },
      { key: 'url', op: 'include', value: 'x' },
      { key: 'url', op: 'like', value: 'x*', extra: { eventClass: 5 } },
    ];
    const parsed = parseFilters(url({ globalFilters: JSON.stringify(mixed) }), ['visits']);
    expect(parsed.filters.dimension).toEqual([{ key: 'url', op: 'like', value: 'x*' }]);
    expect(parsed.corrected).toBe(true);
    expect(writeFilters(url({ a: '1', globalFilters: 'x' }), parsed.filters).get('globalFilters')).toBe('[{"key":"url","op":"like","value":"x*"}]');
  });
  it('keeps metric filters of the report\'s metrics with >, <, = and a value not below 0', () => {
    const parsed = parseFilters(url({ tableFilters: 'visits:>:1,bounces:<:2,visits:>=:3,visits:=:-1,visits:<:,page_views:=:2.5' }), ['visits', 'page_views']);
    expect(parsed.filters.metric).toEqual([
      { key: 'visits', op: '>', value: 1 },
      { key: 'page_views', op: '=', value: 2.5 },
    ]);
    expect(parsed.corrected).toBe(true);
  });
  it('at most the api\'s rule limit; no filters, no parameter', () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ key: 'url', op: '=', value: `/p${i}` }));
    expect(parseFilters(url({ globalFilters: JSON.stringify(many) }), []).filters.dimension).toHaveLength(20);
    expect(writeFilters(url({ globalFilters: '[]', tableFilters: '' }), { dimension: [], metric: [] }).toString()).toBe('');
    expect(sameFilters({ dimension: [{ key: 'url', op: '=', value: 'a' }], metric: [] }, { dimension: [{ key: 'url', op: '=', value: 'a' }], metric: [] })).toBe(true);
  });
  it('corrects a URL to the rules it keeps, other parameters untouched, and a valid one to nothing', () => {
    const corrected = correctFilters(url({ a: '1', globalFilters: '[{', tableFilters: 'visits:>:1,bounces:<:2' }), ['visits']);
    expect(corrected?.toString()).toBe('a=1&tableFilters=visits%3A%3E%3A1');
    expect(correctFilters(corrected ?? url({}), ['visits'])).toBeNull();
    expect(correctFilters(url({ a: '1' }), ['visits'])).toBeNull();
  });
});

describe('the dialog menu', () => {
  it('has the spec\'s groups, only collected dimensions, and searches by group or dimension title', () => {
    const titles = FILTER_MENU.map((s) => s.title);
    expect(titles).toEqual(expect.arrayContaining(['События', 'Аудитория', 'География', 'Технологии', 'Источники', 'UTM Метки', 'Содержание']));
    expect(FILTER_MENU.flatMap((s) => s.items.map((i) => i.key))).not.toContain('gender');
    expect(searchMenu('город').map((s) => [s.title, s.items.map((i) => i.key)])).toEqual([['География', ['geo_city']]]);
    expect(searchMenu('utm').map((s) => s.items.length)).toEqual([5]);
  });
});

describe('a template title among the others (spec 001 §5)', () => {
  const others: SavedFilter[] = [{ id: 1, title: 'Chrome только', type: 'private', body: {}, editable: true }];
  it('is taken when it differs from another in case or spacing only; empty is «Поле не заполнено»', () => {
    expect(titleError(' chrome  ТОЛЬКО ', others)).toBe('Шаблон с таким названием уже существует');
    expect(titleError('Chrome только и Москва', others)).toBeNull();
    expect(titleError('   ', others)).toBe('Поле не заполнено');
  });
});
