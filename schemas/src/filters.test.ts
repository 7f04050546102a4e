import { describe, expect, it } from 'vitest';
import { dimensionType } from './dimensions.js';
import { filterRuleProblem, filterValueProblem } from './filters.js';

const DATETIME_RULE = 'a date and time written YYYY-MM-DD HH:MM:SS (UTC), from 1970-01-01 00:00:00 to 2106-02-07 06:28:15';
const NUMBER_RULE = 'a number from -9007199254740991 to 9007199254740991';

describe('a filter rule is checked by its dimension’s type', () => {
  it('reads each dimension’s type from the catalogue: instants, dates, numbers, text', () => {
    expect(['published_datetime', 'date', 'geo_country', 'project_id', 'visit_time', 'url', 'gender', 'no_such'].map(dimensionType)).toEqual([
      'datetime',
      'date',
      'number',
      'number',
      'number',
      'string',
      'string',
      'string',
    ]);
  });

  it('refuses a word where a date and time is compared', () => {
    expect(filterRuleProblem({ key: 'published_datetime', op: '=', value: 'завтра' })).toEqual({
      field: 'value',
      message: `value of published_datetime must be ${DATETIME_RULE}: "завтра" is not one`,
    });
  });

  it('refuses a pattern on a date and time, naming the operators it takes', () => {
    expect(filterRuleProblem({ key: 'published_datetime', op: 'like', value: '2026*' })).toEqual({
      field: 'op',
      message: 'op like does not apply to published_datetime, a date and time: use =, !=, >, >=, <, <=, range, include, exclude',
    });
  });

  it('refuses a list of instants holding one that is no instant', () => {
    expect(filterRuleProblem({ key: 'published_datetime', op: 'include', value: ['2026-11-01 10:00:00', 'завтра'] })).toEqual({
      field: 'value',
      message: `value of published_datetime must be ${DATETIME_RULE}: "завтра" is not one`,
    });
  });

  it('refuses an instant that is not on the calendar, or beyond what the column holds', () => {
    expect(filterValueProblem('published_datetime', '2026-02-30 10:00:00')).toBe(`value of published_datetime must be ${DATETIME_RULE}: "2026-02-30 10:00:00" is not one`);
    expect(filterValueProblem('published_datetime', '2106-02-07 06:28:16')).toBe(`value of published_datetime must be ${DATETIME_RULE}: "2106-02-07 06:28:16" is not one`);
    expect(filterValueProblem('published_datetime', 1_700_000_000)).toBe(`value of published_datetime must be ${DATETIME_RULE}: 1700000000 is not one`);
  });

  it('takes an instant to the second, to the minute or a day, and a range of them', () => {
    expect(filterRuleProblem({ key: 'published_datetime', op: 'range', value: ['2026-11-01', '2026-11-02 10:30'] })).toBeNull();
    expect(filterRuleProblem({ key: 'published_datetime', op: '>=', value: '2026-11-01 10:30:00' })).toBeNull();
  });

  it('refuses a date with a time, and takes a date', () => {
    expect(filterValueProblem('date', '2026-11-01 10:00')).toBe('value of date must be a date written YYYY-MM-DD, from 1970-01-01 to 2149-06-06: "2026-11-01 10:00" is not one');
    expect(filterRuleProblem({ key: 'date', op: 'exclude', value: ['2026-11-01'] })).toBeNull();
  });

  it('refuses a number beyond ±2^53, and text that is no number, where numbers are compared', () => {
    expect(filterRuleProblem({ key: 'screen_width', op: '>', value: 1e308 })).toEqual({ field: 'value', message: `value of screen_width must be ${NUMBER_RULE}: 1e+308 is not one` });
    expect(filterRuleProblem({ key: 'project_id', op: '=', value: 'abc' })).toEqual({ field: 'value', message: `value of project_id must be ${NUMBER_RULE}: "abc" is not one` });
  });

  it('matches numbers by patterns as text, and takes a number written as text', () => {
    expect(filterRuleProblem({ key: 'screen_width', op: 'like', value: '3*' })).toBeNull();
    expect(filterRuleProblem({ key: 'geo_country', op: 'include', value: ['225', 149] })).toBeNull();
  });

  it('takes any text, or a number, for a text dimension', () => {
    expect(filterRuleProblem({ key: 'url', op: '=', value: 'завтра' })).toBeNull();
    expect(filterRuleProblem({ key: 'url', op: 'nlike', value: '@*завтра*' })).toBeNull();
  });

  it('names the key, an unknown operator and a value of the wrong shape before the type', () => {
    expect(filterRuleProblem({ key: 'password_hash', op: '=', value: 'x' })).toEqual({ field: 'key', message: 'key must be a dimension of the catalogue that the service collects' });
    expect(filterRuleProblem({ key: 'published_datetime', op: 'ilike', value: 'x' })?.field).toBe('op');
    expect(filterRuleProblem({ key: 'published_datetime', op: 'include', value: 'завтра' })).toEqual({
      field: 'value',
      message: 'value of include must be a list of 1 to 100 strings or numbers of at most 1000 characters',
    });
  });
});
