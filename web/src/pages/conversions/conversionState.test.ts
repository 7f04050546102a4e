import { describe, expect, it } from 'vitest';
import { testConversion as conversion } from '../../testing/fixtures';
import { cardActions, conversionRights, conversionText, draftProblems, readDimensions, readSample, readSort, windowText, writeSample } from './conversionState';

describe('the conversion form', () => {
  it('asks for a title of 3 to 255 characters, a short description and a goal', () => {
    expect(draftProblems({ title: '  ', description: '', numerator: '' })).toEqual({ title: 'Поле не заполнено', numerator: 'Выберите цель' });
    expect(draftProblems({ title: ' ab ', description: '', numerator: '3' })).toEqual({ title: 'Минимум 3 символа' });
    expect(draftProblems({ title: 'x'.repeat(256), description: 'y'.repeat(501), numerator: '3' })).toEqual({ title: 'Превышен лимит символов', description: 'Превышен лимит символов' });
    expect(draftProblems({ title: 'abc', description: 'y'.repeat(500), numerator: '3' })).toEqual({});
    expect(draftProblems({ title: 'x'.repeat(255), description: '', numerator: '3' })).toEqual({});
  });
});

describe('the shown value', () => {
  it('has 2 decimals from 1, 6 below, a comma and a percent sign; NA without a denominator', () => {
    // 1 of 3 visits: 33,333…%
    expect(conversionText((100 * 1) / 3)).toBe('33,33 %');
    // 1 of 400 visits: 0,25%
    expect(conversionText((100 * 1) / 400)).toBe('0,250000 %');
    expect(conversionText(100)).toBe('100,00 %');
    expect(conversionText(null)).toBe('NA');
  });
  it('names the attribution windows in days', () => {
    expect([7, 14, 21, 28].map(windowText)).toEqual(['7 дней', '14 дней', '21 день', '28 дней']);
  });
});

describe('who may do what', () => {
  it('lets nobody but the project’s editors write on the demo project', () => {
    expect(conversionRights('7596044', true, false)).toEqual({ write: false, demo: true, refusal: 'demo' });
    expect(conversionRights('7596044', true, true)).toEqual({ write: true, demo: true, refusal: null });
    expect(conversionRights('12', true, false)).toEqual({ write: true, demo: false, refusal: null });
    expect(conversionRights('12', false, false)).toEqual({ write: false, demo: false, refusal: 'login' });
  });
  it('offers «Сделать публичной» and delete on one’s own personal conversion only', () => {
    expect(cardActions(conversion({}), true, false)).toEqual({ edit: true, makePublic: true, remove: true });
    expect(cardActions(conversion({ access: 'common' }), true, false)).toEqual({ edit: true, makePublic: false, remove: true });
    expect(cardActions(conversion({ access: 'common', is_owner: false }), true, true)).toEqual({ edit: true, makePublic: false, remove: false });
    expect(cardActions(conversion({ access: 'common', is_owner: false }), true, false)).toEqual({ edit: false, makePublic: false, remove: false });
    expect(cardActions(conversion({}), false, true)).toEqual({ edit: false, makePublic: false, remove: false });
  });
});

describe('the conversion table’s state in the URL', () => {
  it('reads the dimensions in the catalogue’s order, ignoring unknown ones; none: the traffic type', () => {
    expect(readDimensions('utm_source,traffic_type,bogus')).toEqual(['traffic_type', 'utm_source']);
    expect(readDimensions(null)).toEqual(['traffic_type']);
    expect(readDimensions('bogus')).toEqual(['traffic_type']);
  });

  it('reads a sort by a shown dimension or a metric; anything else sorts by the goal’s units, most first', () => {
    expect(readSort('utm_source:asc', ['traffic_type', 'utm_source'])).toEqual({ name: 'utm_source', order: 'asc' });
    expect(readSort('conversion:asc', ['traffic_type'])).toEqual({ name: 'conversion', order: 'asc' });
    expect(readSort('utm_source:asc', ['traffic_type'])).toEqual({ name: 'numerator', order: 'desc' });
    expect(readSort('traffic_type:sideways', ['traffic_type'])).toEqual({ name: 'numerator', order: 'desc' });
    expect(readSort(null, ['traffic_type'])).toEqual({ name: 'numerator', order: 'desc' });
  });
});

describe('the sample in the URL', () => {
  it('reads a share in (0, 1], else the conversion default 1', () => {
    expect([null, '0.1', '0.01', '1', '0', '7', '-0.1', 'abc', '0.1e1'].map(readSample)).toEqual([1, 0.1, 0.01, 1, 1, 1, 1, 1, 1]);
  });

  it('writes the default as no parameter, keeping the others', () => {
    const url = new URLSearchParams('dateStart=7days&sample=0.1');
    expect(writeSample(url, 0.01).toString()).toBe('dateStart=7days&sample=0.01');
    expect(writeSample(url, 1).toString()).toBe('dateStart=7days');
    expect(url.toString()).toBe('dateStart=7days&sample=0.1');
  });
});
