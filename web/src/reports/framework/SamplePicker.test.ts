import { describe, expect, it } from 'vitest';
import { wholeReason } from './SamplePicker';

describe('wholeReason', () => {
  it('today: read whole whatever the answer', () => {
    expect(wholeReason({ today: true, sampling: true, value: 0.1, used: undefined })).toBe('today');
  });

  it('a report that does not sample is exact', () => {
    expect(wholeReason({ today: false, sampling: false, value: 1, used: 1 })).toBe('exact');
  });

  it('an answer read whole though a sample was asked: the period needs none', () => {
    expect(wholeReason({ today: false, sampling: true, value: 0.01, used: 1 })).toBe('period');
  });

  it('the reason the answer gives: an exact report read from rollups is not a small period', () => {
    expect(wholeReason({ today: false, sampling: true, value: 0.1, used: 1, whole: 'exact' })).toBe('exact');
    expect(wholeReason({ today: false, sampling: true, value: 0.1, used: 1, whole: 'period' })).toBe('period');
  });

  it('none while there is no answer, when the sample asked was read, and when all was asked', () => {
    expect([
      wholeReason({ today: false, sampling: true, value: 0.1, used: undefined }),
      wholeReason({ today: false, sampling: true, value: 0.1, used: 0.1 }),
      wholeReason({ today: false, sampling: true, value: 1, used: 1 }),
    ]).toEqual([null, null, null]);
  });
});
