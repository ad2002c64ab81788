import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

/**
 * Nothing but the core's own script and stylesheet may run or load; the QR code is inline SVG
 * (markup, not script), and `data:` images cover a QR stored as an image. No page may frame
 * this one, and forms may only post back to it.
 */
export const PAYMENT_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  'img-src data:',
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export const PAYMENT_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': PAYMENT_PAGE_CSP,
  // The payment id is in the URL: it must not leak to the shop or the messenger in a Referer.
  'Referrer-Policy': 'no-referrer',
  // A page with receiving details must not outlive its payin in a browser or proxy cache.
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  'X-Robots-Tag': 'noindex, nofollow',
};

/** Set before any handler, interceptor or filter runs, so error answers carry them too. */
@Injectable()
export class PaymentPageHeadersMiddleware implements NestMiddleware {
  use(_req: Request, res: Response, next: NextFunction): void {
    for (const [name, value] of Object.entries(PAYMENT_PAGE_HEADERS)) res.setHeader(name, value);
    next();
  }
}
