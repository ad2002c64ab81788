import {
  CanActivate,
  ExecutionContext,
  HttpStatus,
  Inject,
  Injectable,
  Logger,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { APP_CONFIG, AppConfig } from '@app/config';
import { FieldCipher } from '@app/crypto';
import { AppException, ErrorCode } from '@app/errors';
import { requestLogFields } from '@app/observability';
import { verify } from '@app/signature';
import type { AccessScope, AuthenticatedRequest, StoreCredentials } from './auth.types';
import { ACCESS_SCOPE, FIELD_CIPHER } from './auth.tokens';
import { NonceStore } from './nonce-store';
import { RateLimitService } from './rate-limit.service';
import { readReplayParams } from './replay-protection';
import { isAbsent, signedParts } from './signed-payload';
import { ResolvedStore, StoreCredentialsCache } from './store-credentials.cache';
import { StoreCredentialsRepository } from './store-credentials.repository';

const MAX_PUBLIC_TOKEN_LENGTH = 100;

const ACCESS: Record<
  AccessScope,
  { flag: 'payinEnabled' | 'payoutEnabled' | 'accountEnabled'; code: ErrorCode }
> = {
  payin: { flag: 'payinEnabled', code: ErrorCode.ACCESS_PAYIN_DISABLED },
  payout: { flag: 'payoutEnabled', code: ErrorCode.ACCESS_PAYOUT_DISABLED },
  account: { flag: 'accountEnabled', code: ErrorCode.ACCESS_ACCOUNT_DISABLED },
};

/**
 * The one guard of every merchant endpoint. Checks run in the order decisions.md section 2
 * fixes, each failing with its own code:
 *   1. `x-public-token` present                     401 ERROR_PUBLIC_TOKEN_REQUIRED
 *   2. `signature` present                          401 ERROR_SIGNATURE_REQUIRED
 *   3. token known, its record readable             401 ERROR_PUBLIC_TOKEN_INVALID
 *   4. signature valid (timing-safe)                401 ERROR_SIGNATURE_INVALID
 *   5. replay fields, when sent or required         401 ERROR_SIGNATURE_EXPIRED / _REPLAYED
 *   6. the store's request budget                   429 ERROR_RATE_LIMIT_EXCEEDED
 *   7. the merchant exists                          404 ERROR_MERCHANT_NOT_FOUND
 *   8. the endpoint's access flag                   403 ERROR_ACCESS_*_DISABLED
 * Validation (400), lookups (404) and the core come after, in pipes and services. Guards run
 * before pipes, so the signature is checked over the parameters exactly as sent.
 */
@Injectable()
export class MerchantAuthGuard implements CanActivate {
  private readonly logger = new Logger(MerchantAuthGuard.name);

  constructor(
    private readonly reflector: Reflector,
    private readonly credentials: StoreCredentialsRepository,
    private readonly credentialsCache: StoreCredentialsCache,
    private readonly nonces: NonceStore,
    private readonly rateLimits: RateLimitService,
    @Inject(FIELD_CIPHER) private readonly cipher: FieldCipher,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const scope = this.reflector.getAllAndOverride<AccessScope | undefined>(ACCESS_SCOPE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!scope)
      throw new Error(
        `${context.getClass().name}.${context.getHandler().name} uses MerchantAuthGuard without @MerchantAuth(scope)`,
      );
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const clientIp = request.ip ?? request.socket.remoteAddress ?? 'unknown';

    await this.rateLimits.assertClientNotBlocked(clientIp);
    let store: StoreCredentials;
    try {
      store = await this.authenticate(request);
    } catch (error) {
      if (error instanceof AppException && error.status === HttpStatus.UNAUTHORIZED)
        await this.rateLimits.recordAuthFailure(clientIp);
      throw error;
    }

    await this.rateLimits.consumeForStore(store.storeId);
    if (!store.merchant) throw new AppException(ErrorCode.MERCHANT_NOT_FOUND, HttpStatus.NOT_FOUND);
    const access = ACCESS[scope];
    if (!store.merchant[access.flag]) throw new AppException(access.code, HttpStatus.FORBIDDEN);

    request.merchantAuth = { storeId: store.storeId, merchantId: store.merchantId };
    return true;
  }

  private async authenticate(request: AuthenticatedRequest): Promise<StoreCredentials> {
    const publicToken = request.headers['x-public-token'];
    if (typeof publicToken !== 'string' || publicToken.trim() === '') {
      throw new AppException(ErrorCode.PUBLIC_TOKEN_REQUIRED, HttpStatus.UNAUTHORIZED);
    }

    const pathTransactionId =
      typeof request.params?.transactionId === 'string' ? request.params.transactionId : undefined;
    const { params, signature, payload } = signedParts(
      request.method,
      request.query,
      request.body,
      pathTransactionId,
    );
    if (isAbsent(signature))
      throw new AppException(ErrorCode.SIGNATURE_REQUIRED, HttpStatus.UNAUTHORIZED);

    const store =
      publicToken.length <= MAX_PUBLIC_TOKEN_LENGTH
        ? await this.credentialsCache.resolve(publicToken, () =>
            this.loadStore(publicToken, request),
          )
        : null;
    if (!store) throw new AppException(ErrorCode.PUBLIC_TOKEN_INVALID, HttpStatus.UNAUTHORIZED);

    if (!verify(payload, store.privateToken, signature))
      throw new AppException(ErrorCode.SIGNATURE_INVALID, HttpStatus.UNAUTHORIZED);

    // Only after the signature holds: an unsigned request must not be able to burn a nonce.
    const windowSeconds = this.config.merchantApi.replayWindowSeconds;
    const replay = readReplayParams(params, {
      required: store.requireReplayProtection,
      windowSeconds,
      nowMs: Date.now(),
    });
    if (replay.nonce !== undefined) {
      // Kept past both edges of the timestamp window, so a nonce cannot come back while its timestamp is still accepted.
      const fresh = await this.nonces.remember(store.storeId, replay.nonce, windowSeconds * 2 + 60);
      if (!fresh) throw new AppException(ErrorCode.SIGNATURE_REPLAYED, HttpStatus.UNAUTHORIZED);
    }
    return store;
  }

  /** The store of a public token with its private token unsealed; null when either fails. */
  private async loadStore(
    publicToken: string,
    request: AuthenticatedRequest,
  ): Promise<ResolvedStore | null> {
    const store = await this.credentials.findByPublicToken(publicToken);
    if (!store) return null;
    try {
      return { ...store, privateToken: this.cipher.decrypt(store.privateTokenEnc) };
    } catch {
      this.logger.warn(
        { ...requestLogFields(request) },
        `store ${store.storeId}: private token cannot be decrypted with the configured ENCRYPTION_KEY`,
      );
      return null;
    }
  }
}
