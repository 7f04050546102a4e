import { useCallback, useEffect, useRef } from 'react';
import type { PeriodGroup } from '@stat/schemas/period';
import { useSnackbar } from '../../app/Snackbar';
import { REGROUPED } from '../../data/messages';

/** A «Детализация» picked and not yet answered: the group, and whether its request has begun. */
interface Pending {
  readonly from: PeriodGroup;
  readonly to: PeriodGroup;
  asked: boolean;
}

/**
 * «Данные пересчитаны» (spec 001 §8, "after grouping change"): shown once the report's data for a
 * «Детализация» the user picked has come, not at the click (the figures on the page would still
 * be the old group's). Returns what the picker calls with the new group, before changing it.
 *
 * `group` is the page's group, `loading` whether any of its report requests is under way, `failed`
 * whether one of them failed: a failure says nothing of the kind (its error page shows). A period
 * chosen before the answer, bringing a group of its own, drops the message too.
 */
export function useRegroupedNotice(group: PeriodGroup, loading: boolean, failed: boolean): (next: PeriodGroup) => void {
  const snackbar = useSnackbar();
  const pending = useRef<Pending | null>(null);
  useEffect(() => {
    const p = pending.current;
    if (!p) return;
    // Still the old group (the picked one not rendered yet), or a group nobody picked.
    if (group !== p.to) {
      if (group !== p.from) pending.current = null;
      return;
    }
    // The render that brought the new group still holds the old answer: wait for its request.
    if (loading) {
      p.asked = true;
      return;
    }
    if (!p.asked) return;
    pending.current = null;
    if (!failed) snackbar(REGROUPED);
  }, [group, loading, failed, snackbar]);
  return useCallback(
    (next: PeriodGroup) => {
      pending.current = next === group ? null : { from: group, to: next, asked: false };
    },
    [group],
  );
}
