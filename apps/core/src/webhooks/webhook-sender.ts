import http from 'node:http';
import https from 'node:https';
import { assertLiteralHostAllowed, BlockedAddressError, guardedLookup } from './ssrf-guard';
import type { WebhookRequest } from './webhook-payload';

/** What one attempt produced, as the delivery log records it. */
export interface SendResult {
  delivered: boolean;
  statusCode: number | null;
  durationMs: number;
  /** At most RESPONSE_PREFIX_LENGTH characters of the answer's body. */
  responsePrefix: string | null;
  error: string | null;
}

export interface WebhookSenderOptions {
  timeoutMs: number;
  /** WEBHOOK_ALLOW_PRIVATE: the demo and the tests deliver to loopback. */
  allowPrivate: boolean;
}

export const RESPONSE_PREFIX_LENGTH = 256;
const ERROR_LENGTH = 500;

class DeliveryTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`timed out after ${timeoutMs} ms`);
    this.name = 'DeliveryTimeoutError';
  }
}

/**
 * Sends one webhook attempt over node's http(s). Redirects are never followed (node does not);
 * the whole attempt, connection to last byte read, has one deadline. When private addresses
 * are not allowed, the agents resolve names through the SSRF guard at connect time.
 */
export class WebhookSender {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(private readonly options: WebhookSenderOptions) {
    const lookup = options.allowPrivate ? undefined : guardedLookup();
    // Keep-alive: a merchant usually receives many notifications from one dispatcher in a row.
    this.httpAgent = new http.Agent({ keepAlive: true, lookup });
    this.httpsAgent = new https.Agent({ keepAlive: true, lookup });
  }

  async send(request: WebhookRequest, signal?: AbortSignal): Promise<SendResult> {
    const started = process.hrtime.bigint();
    const elapsed = (): number => Number((process.hrtime.bigint() - started) / 1_000_000n);
    let url: URL;
    try {
      url = new URL(request.url);
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new Error(`unsupported scheme ${url.protocol}`);
      if (!this.options.allowPrivate) assertLiteralHostAllowed(url);
    } catch (error) {
      return {
        delivered: false,
        statusCode: null,
        durationMs: elapsed(),
        responsePrefix: null,
        error: describeError(error),
      };
    }

    return new Promise<SendResult>((resolve) => {
      let statusCode: number | null = null;
      let prefix = '';
      let settled = false;
      const finish = (error: unknown): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const delivered =
          error === null && statusCode !== null && statusCode >= 200 && statusCode < 300;
        resolve({
          delivered,
          statusCode,
          durationMs: elapsed(),
          responsePrefix: statusCode === null ? null : prefix,
          error: error === null ? null : describeError(error),
        });
      };

      const body = request.body === undefined ? undefined : Buffer.from(request.body, 'utf8');
      const headers: Record<string, string | number> = { ...request.headers };
      if (body) headers['content-length'] = body.length;
      const client = url.protocol === 'https:' ? https : http;
      const req = client.request(url, {
        method: request.method,
        headers,
        agent: url.protocol === 'https:' ? this.httpsAgent : this.httpAgent,
      });

      const timer = setTimeout(() => {
        // An answer whose status already arrived counts by that status; only its body was slow.
        if (statusCode !== null) finish(null);
        req.destroy(new DeliveryTimeoutError(this.options.timeoutMs));
      }, this.options.timeoutMs);
      const onAbort = (): void => {
        req.destroy(new Error('aborted: dispatcher shutting down'));
      };
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });

      req.on('error', (error) => finish(error));
      req.on('response', (res) => {
        statusCode = res.statusCode ?? null;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (prefix.length < RESPONSE_PREFIX_LENGTH)
            prefix += chunk.slice(0, RESPONSE_PREFIX_LENGTH - prefix.length);
          // Enough for the log: a receiver that streams a large answer is not read to the end.
          if (prefix.length >= RESPONSE_PREFIX_LENGTH) {
            finish(null);
            res.destroy();
          }
        });
        res.on('end', () => finish(null));
        res.on('error', () => finish(null));
        res.on('close', () => finish(null));
      });
      req.end(body);
    });
  }

  /** Drops idle keep-alive sockets, so a stopping app leaves no handle open. */
  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

function describeError(error: unknown): string {
  let text: string;
  if (error instanceof BlockedAddressError || error instanceof DeliveryTimeoutError)
    text = error.message;
  else if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    text = code && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
  } else text = String(error);
  return text.slice(0, ERROR_LENGTH);
}
