export { FieldCipher } from './cipher';
export { maskCardNumber, passesLuhn, isValidCardNumber } from './card';
export { randomToken, sha256Hex, stableHash, stableStringify } from './tokens';
export { signFileUrl, verifyFileUrl, type FileUrlCheck } from './file-url';
