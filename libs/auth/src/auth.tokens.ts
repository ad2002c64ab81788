/** The FieldCipher that opens stores' sealed private tokens (ENCRYPTION_KEY). */
export const FIELD_CIPHER = Symbol('MERCHANT_AUTH_FIELD_CIPHER');

/** Metadata key of the access flag a route needs (set by @MerchantAuth). */
export const ACCESS_SCOPE = 'merchant-auth:access-scope';
