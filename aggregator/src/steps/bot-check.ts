import { isBot } from '../enrich/index.js';
import { drop, ok, type StepResult } from './result.js';

/** Drops hits of known crawlers by their user agent: they are not visitors. */
export function checkBot<T extends { accepted: { ua: string } }>(hit: T): StepResult<T> {
  return isBot(hit.accepted.ua) ? drop('bot') : ok(hit);
}
