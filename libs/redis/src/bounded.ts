/**
 * A Redis that accepts connections but stopped answering must not hold requests: give up after
 * `ms`. In-process stores answer at once and need no timer (each costs a few percent of a request).
 */
export const REDIS_TIMEOUT_MS = 300;

export class TimeoutError extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = 'TimeoutError';
  }
}

export function bounded<T>(operation: Promise<T>, ms = REDIS_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(ms)), ms);
  });
  // The abandoned operation may still settle later; its outcome is ignored, never unhandled.
  operation.catch(() => undefined);
  return Promise.race([operation, timeout]).finally(() => clearTimeout(timer));
}
