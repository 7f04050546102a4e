import { describe, expect, it } from 'vitest';
import {
  checkAttribute,
  checkBlacklistEntry,
  checkEmail,
  checkKeywords,
  checkPublicStats,
  checkRegions,
  checkSiteUrl,
  checkTerms,
  checkThemes,
  checkTitle,
  checkTypes,
  checkWhitelistEntry,
  collect,
  serverFieldErrors,
} from './validation';

describe('site url (spec 000 §5)', () => {
  it.each([
    ['', 'Поле не заполнено'],
    ['   ', 'Поле не заполнено'],
    [`https://${'a'.repeat(190)}.ru/xx`, 'URL не должен превышать 200 символов'],
    ['example.ru', 'Введен неправильный URL'],
    ['ftp://example.ru', 'Введен неправильный URL'],
    ['https://localhost', 'Введен неправильный URL'],
    ['https://127.0.0.1', 'Введен неправильный URL'],
    ['https://example', 'Введен неправильный URL'],
    ['https://user:pw@example.ru', 'Введен неправильный URL'],
    ['https://exa mple.ru', 'Введен неправильный URL'],
    ['https://example.ru', null],
    ['http://www.example.ru/path?q=1', null],
    ['https://сайт.рф', null],
  ])('%j → %j', (value, text) => {
    expect(checkSiteUrl(value)).toBe(text);
  });
});

describe('site name', () => {
  it('is «Поле не заполнено» when empty on create and «Обязательное поле» in the settings', () => {
    expect(checkTitle('', 'create')).toBe('Поле не заполнено');
    expect(checkTitle(' ', 'settings')).toBe('Обязательное поле');
  });
  it('needs 3 characters', () => {
    expect(checkTitle('ab', 'create')).toBe('Минимум 3 символа');
    expect(checkTitle('abc', 'create')).toBeNull();
  });
  it('is at most 255, and 55 in the rating', () => {
    expect(checkTitle('a'.repeat(255), 'settings')).toBeNull();
    expect(checkTitle('a'.repeat(256), 'settings')).toBe('Превышен лимит символов');
    expect(checkTitle('a'.repeat(55), 'rating')).toBeNull();
    expect(checkTitle('a'.repeat(56), 'rating')).toBe('Превышен лимит символов');
  });
});

describe('other fields', () => {
  it('terms must be accepted', () => {
    expect(checkTerms(false)).toBe('Вы должны принять условия');
    expect(checkTerms(true)).toBeNull();
  });
  it('e-mail', () => {
    expect(checkEmail('')).toBe('Обязательное поле');
    expect(checkEmail('a@b')).toBe('Введен неправильный email');
    expect(checkEmail('a b@c.ru')).toBe('Введен неправильный email');
    expect(checkEmail('user@example.com')).toBeNull();
  });
  it('keywords: required, 3 to 500', () => {
    expect(checkKeywords('')).toBe('Обязательное поле');
    expect(checkKeywords('ab')).toBe('Ключевые слова: от 3 до 500 символов');
    expect(checkKeywords('a'.repeat(501))).toBe('Ключевые слова: от 3 до 500 символов');
    expect(checkKeywords('новости, спорт')).toBeNull();
  });
  it('themes 1 to 7, types at most 2, regions at most 10', () => {
    expect(checkThemes([])).toBe('Обязательное поле');
    expect(checkThemes([1, 2, 3, 4, 5, 6, 7])).toBeNull();
    expect(checkThemes([1, 2, 3, 4, 5, 6, 7, 8])).toBe('Максимальное количество тем: 7');
    expect(checkTypes([1, 2])).toBeNull();
    expect(checkTypes([1, 2, 3])).toBe('Максимальное количество типов: 2');
    expect(checkRegions(Array.from({ length: 10 }, (_, i) => i))).toBeNull();
    expect(checkRegions(Array.from({ length: 11 }, (_, i) => i))).toBe('Максимальное количество регионов: 10');
  });
  it('public stats must be chosen', () => {
    expect(checkPublicStats(null)).toBe('Необходимо выбрать один из пунктов');
    expect(checkPublicStats(false)).toBeNull();
  });
  it('whitelist entries need a domain zone; blacklist entries the generic check', () => {
    expect(checkWhitelistEntry('')).toBe('Обязательное поле');
    expect(checkWhitelistEntry('example.ru')).toBe('Введен неправильный URL');
    expect(checkWhitelistEntry('https://example.ru')).toBeNull();
    expect(checkBlacklistEntry('')).toBe('Обязательное поле');
    expect(checkBlacklistEntry('spam.example')).toBeNull();
    expect(checkBlacklistEntry('https://spam.example/path')).toBeNull();
    expect(checkBlacklistEntry('spam example')).toBe('Введен неправильный URL');
    expect(checkBlacklistEntry('nodot')).toBe('Введен неправильный URL');
  });
  it('data attribute names', () => {
    expect(checkAttribute('your-attribute')).toBeNull();
    expect(checkAttribute('1abc')).not.toBeNull();
    expect(checkAttribute('')).toBe('Обязательное поле');
  });
});

describe('helpers', () => {
  it('collect keeps the failures', () => {
    expect(collect({ a: null, b: 'x', c: null })).toEqual({ b: 'x' });
  });
  it('server field errors take the first text of known fields', () => {
    expect(serverFieldErrors({ url: ['A', 'B'], other: ['C'] }, ['url', 'title'] as const)).toEqual({ url: 'A' });
  });
});
