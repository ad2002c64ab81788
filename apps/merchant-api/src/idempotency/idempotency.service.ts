import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/config';
import { stableHash } from '@app/crypto';
import { AppException, ErrorCode } from '@app/errors';
import { IdempotencyRepository } from './idempotency.repository';

export interface IdempotentRequest {
  storeId: number;
  /** The `Idempotency-Key` header as sent, or undefined. */
  key: string | undefined;
  /** Which endpoint: a key is scoped to the store and reusing it on another endpoint is a reuse. */
  route: string;
  /** The body as sent. */
  body: unknown;
}

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** Fields that legitimately change between retries of one request (decisions.md section 3 replay fields). */
const VOLATILE_FIELDS = new Set(['signature', 'timestamp', 'nonce']);

/**
 * `Idempotency-Key` on creates (decisions.md section 3): a repeat with the same body returns
 * the first response; another body is 422 ERROR_IDEMPOTENCY_KEY_REUSED; a repeat while the first
 * runs is 409 ERROR_IDEMPOTENCY_KEY_IN_PROGRESS. Only successes are kept: when the first attempt
 * fails, the key is released so that a retry runs again (a retried create is still never
 * doubled when it carries a `paymentId`, which the core keeps unique per store).
 */
@Injectable()
export class IdempotencyService {
  private readonly ttlSeconds: number;
  private readonly abandonedAfterSeconds: number;

  constructor(
    private readonly repository: IdempotencyRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.ttlSeconds = config.merchantApi.idempotencyTtlSeconds;
    // A request holding a key longer than a few core timeouts died with its instance.
    this.abandonedAfterSeconds = Math.max(
      60,
      Math.ceil((config.merchantApi.coreTimeoutMs * 3) / 1000),
    );
  }

  /** 400 for a malformed header; to be called with validation, before any work. */
  assertValidKey(key: string | undefined): void {
    if (key !== undefined && !KEY_PATTERN.test(key)) {
      throw new AppException(ErrorCode.INVALID_REQUEST, HttpStatus.BAD_REQUEST, [
        {
          field: 'Idempotency-Key',
          errors: ['Idempotency-Key must be 1 to 255 printable ASCII characters without spaces'],
        },
      ]);
    }
  }

  async run<T>(request: IdempotentRequest, execute: () => Promise<T>): Promise<T> {
    this.assertValidKey(request.key);
    if (request.key === undefined) return execute();
    const { storeId, key, route } = request;
    const requestHash = stableHash(withoutVolatileFields(request.body));

    // A few rounds at most: a first attempt that fails releases the key between our claim and our read.
    for (let round = 0; round < 3; round++) {
      if (
        await this.repository.claim(
          storeId,
          key,
          route,
          requestHash,
          this.ttlSeconds,
          this.abandonedAfterSeconds,
        )
      ) {
        let result: T;
        try {
          result = await execute();
        } catch (error) {
          await this.repository.release(storeId, key);
          throw error;
        }
        await this.repository.complete(storeId, key, HttpStatus.OK, result);
        return result;
      }
      const stored = await this.repository.find(storeId, key);
      if (!stored) continue;
      if (stored.route !== route || stored.requestHash !== requestHash) {
        throw new AppException(ErrorCode.IDEMPOTENCY_KEY_REUSED, HttpStatus.UNPROCESSABLE_ENTITY);
      }
      if (stored.responseStatus === null)
        throw new AppException(ErrorCode.IDEMPOTENCY_KEY_IN_PROGRESS, HttpStatus.CONFLICT);
      return stored.responseBody as T;
    }
    throw new AppException(ErrorCode.IDEMPOTENCY_KEY_IN_PROGRESS, HttpStatus.CONFLICT);
  }
}

function withoutVolatileFields(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  return Object.fromEntries(
    Object.entries(body as Record<string, unknown>).filter(
      ([field]) => !VOLATILE_FIELDS.has(field),
    ),
  );
}
