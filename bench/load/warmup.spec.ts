import { extraWarmupSeconds, type WarmupPolicy } from './warmup';

const policy: WarmupPolicy = { responses: 1_000, maxSeconds: 5 };

describe('extraWarmupSeconds', () => {
  it('adds nothing when the first second already brought enough responses (a cached read)', () => {
    expect(extraWarmupSeconds(policy, { responses: 4_300, seconds: 1 })).toBe(0);
    expect(extraWarmupSeconds(policy, { responses: 1_000, seconds: 1 })).toBe(0);
  });

  it('adds what the rate says the rest takes (a create at 300 a second)', () => {
    expect(extraWarmupSeconds(policy, { responses: 300, seconds: 1 })).toBe(3);
  });

  it('never goes beyond the maximum in all (a create at 100 a second, or none answered)', () => {
    expect(extraWarmupSeconds(policy, { responses: 100, seconds: 1 })).toBe(4);
    expect(extraWarmupSeconds(policy, { responses: 0, seconds: 1 })).toBe(4);
    expect(extraWarmupSeconds(policy, { responses: 10, seconds: 5 })).toBe(0);
  });

  it('adds at least a whole second when any is missing', () => {
    expect(extraWarmupSeconds(policy, { responses: 990, seconds: 1 })).toBe(1);
  });

  it('is off with a response target of 0 (smoke runs)', () => {
    expect(extraWarmupSeconds({ ...policy, responses: 0 }, { responses: 0, seconds: 1 })).toBe(0);
  });
});
