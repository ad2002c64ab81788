import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { APP_CONFIG, AppConfig } from '@app/config';
import { AppException, ErrorCode } from '@app/errors';
import { REDIS_CLIENT, RedisClient } from '@app/redis';

/**
 * Request budgets (decisions.md section 2: 429 ERROR_RATE_LIMIT_EXCEEDED with Retry-After).
 * - per store: every authenticated request, RATE_LIMIT_POINTS per RATE_LIMIT_WINDOW_SECONDS;
 * - per client IP: failed authentications, AUTH_FAILURE_LIMIT_POINTS per window, so a client
 *   guessing tokens or signatures is slowed down (the IP is Express's req.ip: X-Forwarded-For
 *   counts only from the proxies TRUST_PROXY names).
 * Counters live in Redis when configured, shared by every instance; while Redis is unreachable
 * (and without Redis) each instance counts in memory.
 */
@Injectable()
export class RateLimitService {
  private readonly logger = new Logger(RateLimitService.name);
  private readonly perStore: RateLimiterAbstract;
  private readonly authFailures: RateLimiterAbstract;
  private readonly authFailurePoints: number;

  constructor(@Inject(APP_CONFIG) config: AppConfig, @Inject(REDIS_CLIENT) redis: RedisClient) {
    const duration = config.merchantApi.rateLimitWindowSeconds;
    this.authFailurePoints = config.merchantApi.authFailureLimitPoints;
    const build = (keyPrefix: string, points: number): RateLimiterAbstract => {
      const memory = new RateLimiterMemory({ keyPrefix, points, duration });
      if (!redis) return memory;
      // The ioredis client already adds REDIS_KEY_PREFIX in front of this keyPrefix.
      return new RateLimiterRedis({
        storeClient: redis,
        keyPrefix,
        points,
        duration,
        rejectIfRedisNotReady: true,
        insuranceLimiter: memory,
      });
    };
    this.perStore = build('merchant-api:rate:store', config.merchantApi.rateLimitPoints);
    this.authFailures = build('merchant-api:rate:auth-failure', this.authFailurePoints);
  }

  /** Counts one request of a store; throws 429 once its budget for the window is spent. */
  async consumeForStore(storeId: number): Promise<void> {
    try {
      await this.perStore.consume(String(storeId));
    } catch (rejection) {
      throw this.toException(rejection);
    }
  }

  /** Throws 429 while a client IP has spent its budget of failed authentications. */
  async assertClientNotBlocked(clientIp: string): Promise<void> {
    let state: RateLimiterRes | null;
    try {
      state = await this.authFailures.get(clientIp);
    } catch (error) {
      this.logger.warn(`auth failure counter unavailable: ${(error as Error).message}`);
      return;
    }
    if (state && state.consumedPoints >= this.authFailurePoints) throw tooManyRequests(state.msBeforeNext);
  }

  async recordAuthFailure(clientIp: string): Promise<void> {
    try {
      await this.authFailures.penalty(clientIp, 1);
    } catch (error) {
      this.logger.warn(`auth failure counter unavailable: ${(error as Error).message}`);
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
  return new AppException(ErrorCode.RATE_LIMIT_EXCEEDED, HttpStatus.TOO_MANY_REQUESTS, undefined, { 'Retry-After': String(seconds) });
}
