import type { Request } from 'autocannon';
import type { LoadPlan } from './load-spec';
import { buildPlan } from './plans';

const store = { publicToken: 'pub', privateToken: 'priv' };

/** The paymentIds the plan's first request sends over `calls` calls. */
function paymentIds(plan: LoadPlan, phase: string, calls: number): string[] {
  const [create] = buildPlan(plan, phase).requests;
  const setup = create.setupRequest as (request: Request, context: object) => Request;
  return Array.from({ length: calls }, () => {
    const { body } = setup({ method: 'POST', path: '/api/v1/payin' }, {});
    return (JSON.parse(String(body)) as { paymentId: string }).paymentId;
  });
}

describe('buildPlan', () => {
  // A repeated paymentId is answered from the first payin (a repeat, not a create), so a
  // measured run that re-sent the warm-up's ids would measure repeats.
  it.each<LoadPlan>([
    { kind: 'payin-create', store, tag: 'run1-b-r1' },
    { kind: 'mixed', store, tag: 'run1-e', totalPages: 3, cardNumber: '4111111111111111' },
  ])('gives the warm-up and the measured run of one $kind plan different paymentIds', (plan) => {
    const warmup = paymentIds(plan, 'warmup', 50);
    const measured = paymentIds(plan, 'measured', 50);
    expect(new Set([...warmup, ...measured]).size).toBe(100);
  });
});
