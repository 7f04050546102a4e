import type { AcceptedHit } from '@stat/schemas';
import { applySiteRules, type SiteRules } from '../site-rules.js';
import { drop, ok, type Step } from './result.js';

/** A hit that counts for its project, its page address as the project's settings write it. */
export interface RuledHit {
  accepted: AcceptedHit;
  /** the host of the project's site address when its settings are read (it decides internal traffic) */
  siteHost: string | undefined;
}

/**
 * The project's counter settings: a hit of an unknown or deleted project is dropped
 * ('no_project'), a page the whitelist or blacklist excludes too; the page address is rewritten
 * (www merged, subdomains merged, the hash cut) as the settings say.
 *
 * @param rulesOf the rules of a project loaded for the batch, null for no live project; null
 *   itself when no settings are read (the demo seed, tests without Postgres): every hit counts
 *   under the address it came with
 */
export function applySiteRulesStep(rulesOf: ((project: number) => SiteRules | null) | null): Step<AcceptedHit, RuledHit> {
  return (accepted) => {
    if (!rulesOf) return ok({ accepted, siteHost: undefined });
    const rules = rulesOf(accepted.hit.p);
    if (!rules) return drop('no_project');
    const ruled = applySiteRules(accepted.hit.u, rules);
    if (ruled.kind === 'drop') return drop(ruled.reason);
    const hit = ruled.url === accepted.hit.u ? accepted : { ...accepted, hit: { ...accepted.hit, u: ruled.url } };
    return ok({ accepted: hit, siteHost: rules.siteHost });
  };
}
