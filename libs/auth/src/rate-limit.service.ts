import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import {
  RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { APP_CONFIG, AppConfig } from '@app/config';
import { AppException, ErrorCode } from '@app/errors';
import { bounded, TimeoutError, REDIS_CLIENT, RedisClient } from '@app/redis';

/**
 * Request budgets (decisions.md section 2: 429 ERROR_RATE_LIMIT_EXCEEDED with Retry-After).
 * - per store: every authenticated request, RATE_LIMIT_POINTS per RATE_LIMIT_WINDOW_SECONDS;
 * - per client IP: failed authentications, AUTH_FAILURE_LIMIT_POINTS per window, so a client
 *   guessing tokens or signatures is slowed down (the IP is Express's req.ip: X-Forwarded-For
 *   counts only from the proxies TRUST_PROXY names).
 * Counters live in Redis when configured, shared by every instance; while Redis is unreachable
 * or stops answering (and without Redis) each instance counts in memory.
 */
interface Limiter {
  /** Redis-backed when configured, else the memory one. */
  primary: RateLimiterAbstract;
  /** Counts in this process while Redis is unreachable or not answering. */
  memory: RateLimiterMemory;
  /** A Redis call is given up after REDIS_TIMEOUT_MS; a memory one needs no timer. */
  bound: <T>(operation: Promise<T>) => Promise<T>;
}

@Injectable()
export class RateLimitService {
  private readonly logger = new Logger(RateLimitService.name);
  private readonly perStore: Limiter;
  private readonly authFailures: Limiter;
  private readonly authFailurePoints: number;

  constructor(@Inject(APP_CONFIG) config: AppConfig, @Inject(REDIS_CLIENT) redis: RedisClient) {
    const duration = config.merchantApi.rateLimitWindowSeconds;
    this.authFailurePoints = config.merchantApi.authFailureLimitPoints;
    const build = (keyPrefix: string, points: number): Limiter => {
      const memory = new RateLimiterMemory({ keyPrefix, points, duration });
      if (!redis) return { primary: memory, memory, bound: (operation) => operation };
      // The ioredis client already adds REDIS_KEY_PREFIX in front of this keyPrefix.
      const primary = new RateLimiterRedis({
        storeClient: redis,
        keyPrefix,
        points,
        duration,
        rejectIfRedisNotReady: true,
        insuranceLimiter: memory,
      });
      return { primary, memory, bound: (operation) => bounded(operation) };
    };
    this.perStore = build('merchant-api:rate:store', config.merchantApi.rateLimitPoints);
    this.authFailures = build('merchant-api:rate:auth-failure', this.authFailurePoints);
  }

  /** Counts one request of a store; throws 429 once its budget for the window is spent. */
  async consumeForStore(storeId: number): Promise<void> {
    const key = String(storeId);
    try {
      await this.perStore.bound(this.perStore.primary.consume(key));
    } catch (rejection) {
      if (!(rejection instanceof TimeoutError)) throw this.toException(rejection);
      this.logger.warn(`rate limit counted in memory: Redis ${rejection.message}`);
      try {
        await this.perStore.memory.consume(key);
      } catch (memoryRejection) {
        throw this.toException(memoryRejection);
      }
    }
  }

  /** Throws 429 while a client IP has spent its budget of failed authentications. */
  async assertClientNotBlocked(clientIp: string): Promise<void> {
    let state: RateLimiterRes | null;
    try {
      state = await this.authFailures.bound(this.authFailures.primary.get(clientIp));
    } catch (error) {
      this.logger.warn(`auth failure counter unavailable: ${(error as Error).message}`);
      state = await this.authFailures.memory.get(clientIp);
    }
    if (state && state.consumedPoints >= this.authFailurePoints) {
      throw tooManyRequests(state.msBeforeNext);
    }
  }

  async recordAuthFailure(clientIp: string): Promise<void> {
    try {
      await this.authFailures.bound(this.authFailures.primary.penalty(clientIp, 1));
    } catch (error) {
      this.logger.warn(`auth failure counter unavailable: ${(error as Error).message}`);
      await this.authFailures.memory.penalty(clientIp, 1);
    }
  }

  private toException(rejection: unknown): AppException {
    if (rejection instanceof RateLimiterRes) return tooManyRequests(rejection.msBeforeNext);
    // A store error without an answer from the insurance limiter: refuse rather than run unmetered.
    this.logger.error(`rate limiter failed: ${(rejection as Error)?.message ?? String(rejection)}`);
    return tooManyRequests(1000);
  }
}

function tooManyRequests(msBeforeNext: number): AppException {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new AppException(ErrorCode.RATE_LIMIT_EXCEEDED, HttpStatus.TOO_MANY_REQUESTS, undefined, {
    'Retry-After': String(seconds),
  });
}
