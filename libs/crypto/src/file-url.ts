import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Expiring links to stored proof files. The merchant API builds them when it maps a payin and
 * the core checks them when it serves `/files/:key`; both hold FILE_URL_KEY.
 */
export interface SignedFileUrl {
  key: string;
  expires: number;
  sig: string;
}

function fileUrlSignature(key: string, expires: number, secret: string): string {
  return createHmac('sha256', secret).update(`${key}\n${expires}`).digest('hex');
}

/** `<baseUrl>/files/<key>?expires=<unix seconds>&sig=<hex>` */
export function signFileUrl(baseUrl: string, key: string, secret: string, ttlSeconds: number, now = Date.now()): string {
  // Round the expiry up to the TTL grid so that a cached payload and a fresh one carry the same link.
  // A link stays valid for between one and two TTLs.
  const expires = (Math.floor(now / 1000 / ttlSeconds) + 2) * ttlSeconds;
  const sig = fileUrlSignature(key, expires, secret);
  return `${baseUrl.replace(/\/+$/, '')}/files/${encodeURIComponent(key)}?expires=${expires}&sig=${sig}`;
}

export type FileUrlCheck = 'ok' | 'expired' | 'invalid';

export function verifyFileUrl(key: string, expires: string | undefined, sig: string | undefined, secret: string, now = Date.now()): FileUrlCheck {
  if (!expires || !sig || !/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(sig)) return 'invalid';
  const expected = Buffer.from(fileUrlSignature(key, Number(expires), secret), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(sig, 'hex'))) return 'invalid';
  return Number(expires) * 1000 < now ? 'expired' : 'ok';
}
