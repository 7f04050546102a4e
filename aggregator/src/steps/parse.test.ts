import { describe, expect, it } from 'vitest';
import type { AcceptedHit } from '@stat/schemas';
import { deadLetterOf, parseMessage, rawOf } from './parse.js';

const ID = '00000000-0000-4000-8000-000000000001';
const accepted: AcceptedHit = {
  id: ID,
  at: 1_700_000_000_000,
  ip: '77.88.55.88',
  ua: 'Mozilla/5.0',
  hit: { p: 5, t: 'pageview', u: 'https://shop.ru/', r: '', ti: 'Shop', sw: 1920, sh: 1080, v: 'visitor-1' },
};

describe('parseMessage', () => {
  it('takes an accepted hit handed over as an object (the in-process bus)', () => {
    expect(parseMessage(accepted)).toEqual({ ok: accepted });
  });

  it("takes an accepted hit handed over as JSON text (Kafka's message)", () => {
    expect(parseMessage(JSON.stringify(accepted))).toEqual({ ok: accepted });
  });

  it('sets aside text that is not JSON', () => {
    expect(parseMessage('{"id": "0000')).toEqual({ deadLetter: 'body: not valid JSON' });
  });

  it('sets aside an empty message (a Kafka message with no value)', () => {
    expect(parseMessage('')).toEqual({ deadLetter: 'body: not valid JSON' });
  });

  it("sets aside an old collector's project id beyond what the stores hold", () => {
    expect(parseMessage({ ...accepted, hit: { ...accepted.hit, p: 2_147_483_648 } })).toEqual({ deadLetter: 'hit.p: must be at most 2147483647' });
  });

  it('sets aside a title with a lone surrogate', () => {
    expect(parseMessage(`{"id":"${ID}","at":1,"ip":"","ua":"","hit":{"p":5,"u":"https://shop.ru/","v":"visitor-1","ti":"x\\ud800y"}}`)).toEqual({
      deadLetter: 'hit.ti: must be well-formed Unicode (a lone surrogate)',
    });
  });

  it('sets aside JSON that is no accepted hit', () => {
    expect([parseMessage('null'), parseMessage('[1]'), parseMessage({ ...accepted, id: 'x' })]).toEqual([
      { deadLetter: 'body: Invalid input: expected object, received null' },
      { deadLetter: 'body: Invalid input: expected object, received array' },
      { deadLetter: 'id: must be a UUID' },
    ]);
  });
});

describe('rawOf', () => {
  it('keeps text as it came', () => {
    expect(rawOf('{"p": 1}')).toBe('{"p": 1}');
  });

  it('writes a lone surrogate in text as its escape, so the text is storable', () => {
    expect(rawOf('x\ud800y\ud83d\ude00')).toBe('x\\ud800y\ud83d\ude00');
  });

  it('writes an object as JSON, lone surrogates and NUL escaped', () => {
    expect(rawOf({ ti: 'x\ud800y\u0000' })).toBe('{"ti":"x\\ud800y\\u0000"}');
  });

  it('writes what JSON cannot as its string form', () => {
    expect([rawOf(undefined), rawOf(10n)]).toEqual(['undefined', '10']);
  });
});

describe('deadLetterOf', () => {
  it('keeps the event id, project and time a message has', () => {
    const message = { ...accepted, hit: { ...accepted.hit, ti: 'x\ud800y' } };
    expect(deadLetterOf(message, 'hit.ti: must be well-formed Unicode (a lone surrogate)', 42)).toEqual({
      letter: { reason: 'hit.ti: must be well-formed Unicode (a lone surrogate)', raw: JSON.stringify(message), eventId: ID, projectId: 5, at: 42 },
      hitAt: accepted.at,
    });
  });

  it('leaves out a project id that no store holds and an id that is no UUID', () => {
    const message = JSON.stringify({ id: 'not-an-id', at: 'soon', hit: { p: 2_147_483_648 } });
    expect(deadLetterOf(message, 'id: must be a UUID', 42)).toEqual({
      letter: { reason: 'id: must be a UUID', raw: message, eventId: '', projectId: 0, at: 42 },
      hitAt: null,
    });
  });

  it('reads nothing from text that is not JSON', () => {
    expect(deadLetterOf('not json', 'body: not valid JSON', 42)).toEqual({
      letter: { reason: 'body: not valid JSON', raw: 'not json', eventId: '', projectId: 0, at: 42 },
      hitAt: null,
    });
  });
});
