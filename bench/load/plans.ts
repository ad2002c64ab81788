import type { Request } from 'autocannon';
import { pathPayload, sign } from '@app/signature';
import type { LoadPlan, StoreKeys } from './load-spec';

/**
 * Turns a plan into autocannon requests. Requests that differ per call (a fresh `paymentId`, a
 * random page, the id a create returned) are signed in `setupRequest`, exactly as a merchant's
 * integration signs each call (merchant-api.md section 5).
 */
export interface BuiltPlan {
  requests: Request[];
  /** Responses by step name and status (mixed plan only). */
  steps?: Record<string, Record<string, number>>;
}

interface MixedContext {
  payinId?: string;
  payoutId?: string;
}

const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * `phase` names the run the requests are for (the warm-up, the measured run): a plan is built
 * once per run, and fresh `paymentId`s carry the phase so that no run repeats another's.
 */
export function buildPlan(plan: LoadPlan, phase: string): BuiltPlan {
  switch (plan.kind) {
    case 'fixed':
      return {
        requests: [
          { method: plan.method, path: plan.path, headers: plan.headers, body: plan.body },
        ],
      };
    case 'payin-create':
      return {
        requests: [
          {
            method: 'POST',
            path: '/api/v1/payin',
            setupRequest: freshPayinCreate(plan.store, `${plan.tag}-${phase}`),
          },
        ],
      };
    case 'payout-create': {
      const body = signedBody(plan.store, {
        amount: plan.amount,
        clientId: 1,
        cardNumber: plan.cardNumber,
      });
      return {
        requests: [
          {
            method: 'POST',
            path: '/api/v1/payout',
            headers: storeHeaders(plan.store, JSON_HEADERS),
            body,
          },
        ],
      };
    }
    case 'balance-page': {
      const headers = storeHeaders(plan.store);
      const fixedPath =
        plan.page === 'random' ? undefined : balancePagePath(plan.store, plan.page, plan.limit);
      return {
        requests: [
          fixedPath
            ? { method: 'GET', path: fixedPath, headers }
            : {
                method: 'GET',
                headers,
                setupRequest: (request) => ({
                  ...request,
                  path: balancePagePath(plan.store, randomPage(plan.totalPages), plan.limit),
                }),
              },
        ],
      };
    }
    case 'mixed':
      return mixedPlan(plan, phase);
  }
}

function mixedPlan(plan: Extract<LoadPlan, { kind: 'mixed' }>, phase: string): BuiltPlan {
  const steps: Record<string, Record<string, number>> = {};
  const count = (step: string, status: number): void => {
    const byStatus = (steps[step] ??= {});
    byStatus[status] = (byStatus[status] ?? 0) + 1;
  };
  let changes = 0;
  const onPayin = (step: string, build: (id: string, request: Request) => Request): Request => ({
    // No id means the create failed (already counted): returning nothing restarts the loop.
    setupRequest: (request, context) => {
      const id = (context as MixedContext).payinId;
      return (id ? build(id, request) : undefined) as Request;
    },
    onResponse: (status) => count(step, status),
  });

  const requests: Request[] = [
    {
      method: 'POST',
      path: '/api/v1/payin',
      setupRequest: freshPayinCreate(plan.store, `${plan.tag}-${phase}`),
      onResponse: (status, body, context) => {
        count('payin create', status);
        (context as MixedContext).payinId = status === 200 ? transactionIdOf(body) : undefined;
      },
    },
    onPayin('payin read', (id, request) => ({
      ...request,
      method: 'GET',
      path: transactionReadPath(plan.store, 'payin', id),
      headers: storeHeaders(plan.store),
    })),
    // Alternate the two merchant moves out of `pending`: confirm (PATCH) and cancel (DELETE).
    onPayin('payin confirm/cancel', (id, request) => ({
      ...request,
      method: ++changes % 2 === 0 ? 'DELETE' : 'PATCH',
      path: `/api/v1/payin/${id}`,
      headers: storeHeaders(plan.store, JSON_HEADERS),
      body: transactionBody(plan.store, id),
    })),
    onPayin('payin read after change', (id, request) => ({
      ...request,
      method: 'GET',
      path: transactionReadPath(plan.store, 'payin', id),
      headers: storeHeaders(plan.store),
    })),
    {
      method: 'GET',
      setupRequest: (request) => ({
        ...request,
        headers: storeHeaders(plan.store),
        path: balancePagePath(plan.store, randomPage(plan.totalPages), 20),
      }),
      onResponse: (status) => count('balance page', status),
    },
    {
      method: 'POST',
      path: '/api/v1/payout',
      headers: storeHeaders(plan.store, JSON_HEADERS),
      body: signedBody(plan.store, { amount: 1, clientId: 1, cardNumber: plan.cardNumber }),
      onResponse: (status, body, context) => {
        count('payout create', status);
        (context as MixedContext).payoutId = status === 200 ? transactionIdOf(body) : undefined;
      },
    },
    {
      setupRequest: (request, context) => {
        const id = (context as MixedContext).payoutId;
        return (
          id
            ? {
                ...request,
                method: 'DELETE',
                path: `/api/v1/payout/${id}`,
                headers: storeHeaders(plan.store, JSON_HEADERS),
                body: transactionBody(plan.store, id),
              }
            : undefined
        ) as Request;
      },
      onResponse: (status) => count('payout cancel', status),
    },
  ];
  return { requests, steps };
}

/** Signs a payin create per call, each with a paymentId of its own (`<prefix>-<n>`). */
function freshPayinCreate(store: StoreKeys, prefix: string): (request: Request) => Request {
  let counter = 0;
  return (request) => ({
    ...request,
    headers: storeHeaders(store, JSON_HEADERS),
    body: signedBody(store, payinBody(`${prefix}-${++counter}`)),
  });
}

export function storeHeaders(
  store: StoreKeys,
  extra: Record<string, string> = {},
): Record<string, string> {
  return { 'x-public-token': store.publicToken, ...extra };
}

/** A payin create body as a shop sends it: its order id as `paymentId`, the client's details. */
export function payinBody(paymentId: string): Record<string, unknown> {
  return {
    amount: 1500.5,
    clientId: 1001,
    paymentId,
    description: 'Order from the benchmark shop',
    clientEmail: 'buyer@example.com',
    clientIp: '203.0.113.7',
  };
}

export function signedBody(store: StoreKeys, body: Record<string, unknown>): string {
  return JSON.stringify({ ...body, signature: sign(body, store.privateToken) });
}

/** GET of a path endpoint: `transactionId` and its signature in the query (section 5.1 rule 2). */
export function transactionReadPath(
  store: StoreKeys,
  resource: 'payin' | 'payout',
  id: string,
): string {
  return `/api/v1/${resource}/${id}?transactionId=${id}&signature=${sign(pathPayload(id), store.privateToken)}`;
}

/** DELETE, PATCH and POST of a path endpoint carry `transactionId` and its signature in the body. */
export function transactionBody(store: StoreKeys, id: string): string {
  return JSON.stringify({
    transactionId: id,
    signature: sign(pathPayload(id), store.privateToken),
  });
}

export function balancePagePath(store: StoreKeys, page: number, limit: number): string {
  const query = { page: String(page), limit: String(limit) };
  return `/api/v1/merchant/balance/changes?page=${page}&limit=${limit}&signature=${sign(query, store.privateToken)}`;
}

function randomPage(totalPages: number): number {
  return 1 + Math.floor(Math.random() * Math.max(1, totalPages));
}

function transactionIdOf(body: string): string | undefined {
  try {
    const id = (JSON.parse(body) as { data?: { transactionId?: unknown } }).data?.transactionId;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}
