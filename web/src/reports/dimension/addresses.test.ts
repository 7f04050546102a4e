import { describe, expect, it } from 'vitest';
import { originOf, sharedOrigin, shownAddress, TAIL_MAX } from './addresses';

describe('the origin of an address', () => {
  it('is the scheme and host of an absolute http(s) address', () => {
    expect(originOf('https://demo.stat.example/novosti/')).toBe('https://demo.stat.example');
    expect(originOf('http://localhost:8080?a=1')).toBe('http://localhost:8080');
    expect(originOf('Главная страница')).toBeNull();
    expect(originOf('/novosti/')).toBeNull();
  });
});

describe('the origin rows share', () => {
  it('is the one every address starts with, titles that are not addresses aside', () => {
    expect(sharedOrigin(['https://demo.stat.example/', 'Не определено', 'https://Demo.stat.example/subscribe'])).toBe('https://demo.stat.example');
  });
  it('is none when hosts differ, or there are fewer than two addresses', () => {
    expect(sharedOrigin(['https://a.example/x', 'https://b.example/x'])).toBeNull();
    expect(sharedOrigin(['https://a.example/x', 'http://a.example/y'])).toBeNull();
    expect(sharedOrigin(['https://a.example/x', 'Не определено'])).toBeNull();
    expect(sharedOrigin([])).toBeNull();
  });
});

describe('an address as its row shows it', () => {
  const origin = 'https://demo.stat.example';
  it('drops the shared origin; the root reads «/»', () => {
    expect(shownAddress('https://demo.stat.example/', origin)).toEqual({ head: '', tail: '/' });
    expect(shownAddress('https://demo.stat.example', origin)).toEqual({ head: '', tail: '/' });
    expect(shownAddress('https://demo.stat.example/subscribe', origin)).toEqual({ head: '', tail: '/subscribe' });
  });
  it('keeps the last path segment whole, a trailing slash and the query with it', () => {
    expect(shownAddress('https://demo.stat.example/novosti/sport/', origin)).toEqual({ head: '/novosti', tail: '/sport/' });
    expect(shownAddress('https://demo.stat.example/a/b?utm=1', origin)).toEqual({ head: '/a', tail: '/b?utm=1' });
  });
  it('keeps at most TAIL_MAX characters of a long last segment whole, the rest goes to the head', () => {
    // «/20261118-novaya-kollekciya-osen» is 32 characters: its last 24 are the tail, the first 8 the head.
    const shown = shownAddress('https://demo.stat.example/20261118-novaya-kollekciya-osen', origin);
    expect(TAIL_MAX).toBe(24);
    expect(shown).toEqual({ head: '/2026111', tail: '8-novaya-kollekciya-osen' });
  });
  it('keeps the host of an address of another origin, or when none is shared', () => {
    expect(shownAddress('https://other.example/x', origin)).toEqual({ head: 'https://other.example', tail: '/x' });
    expect(shownAddress('https://demo.stat.example/x', null)).toEqual({ head: 'https://demo.stat.example', tail: '/x' });
  });
  it('leaves a text that is not an address whole, as the head', () => {
    expect(shownAddress('Главная страница', origin)).toEqual({ head: 'Главная страница', tail: '' });
  });
});
