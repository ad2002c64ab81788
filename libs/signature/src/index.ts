export { canonicalMessage, sign, verify, pathPayload, type SignableParams } from './signature';
