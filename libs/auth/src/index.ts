export { AuthModule } from './auth.module';
export { MerchantAuthGuard } from './merchant-auth.guard';
export { StoreCredentialsCache } from './store-credentials.cache';
export { MerchantAuth, CurrentStore } from './merchant-auth.decorators';
export { signedParts, isAbsent, type SignedParts } from './signed-payload';
export { readReplayParams, type ReplayParams } from './replay-protection';
export { FIELD_CIPHER, ACCESS_SCOPE } from './auth.tokens';
export type { AccessScope, AuthenticatedStore, AuthenticatedRequest } from './auth.types';
