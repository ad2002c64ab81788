import { Inject, Injectable } from '@nestjs/common';
import { HttpService } from '@nestjs/axios';
import type { AxiosResponse } from 'axios';
import { parseCreateReply, parseStatusReply, transportFailure } from './core-client.transformers';
import {
  CallContext,
  CoreCreateResult,
  CorePayinCreateRequest,
  CorePayoutCreateRequest,
  CoreReply,
  CoreStatusResult,
  ProofDocument,
} from './core-client.types';

export const CORE_CLIENT_OPTIONS = Symbol('CORE_CLIENT_OPTIONS');

export interface CoreClientOptions {
  baseUrl: string;
  timeoutMs: number;
  serviceToken: string;
}

/** A core reply is small JSON; a proof upload is at most 10 MB plus the multipart framing. */
const MAX_REPLY_BYTES = 1024 * 1024;
const MAX_REQUEST_BYTES = 11 * 1024 * 1024;

/** What varies between calls to the core; everything else about a call is fixed in `send`. */
interface CoreRequest {
  method: 'POST';
  url: string;
  data: unknown;
}

/**
 * The HTTP half of the core client (docs/core-api.md): one method per core call. Replies and
 * failures are interpreted by core-client.transformers.ts, never here.
 */
@Injectable()
export class CoreClient {
  constructor(
    private readonly http: HttpService,
    @Inject(CORE_CLIENT_OPTIONS) private readonly options: CoreClientOptions,
  ) {}

  async createPayin(
    request: CorePayinCreateRequest,
    context: CallContext,
  ): Promise<CoreCreateResult> {
    return parseCreateReply(
      await this.send({ method: 'POST', url: '/core/v1/payins', data: request }, context),
    );
  }

  async cancelPayin(
    storeId: number,
    transactionId: string,
    context: CallContext,
  ): Promise<CoreStatusResult> {
    return this.move(
      `/core/v1/payins/${encodeURIComponent(transactionId)}/cancel`,
      storeId,
      context,
    );
  }

  async confirmPayin(
    storeId: number,
    transactionId: string,
    context: CallContext,
  ): Promise<CoreStatusResult> {
    return this.move(
      `/core/v1/payins/${encodeURIComponent(transactionId)}/confirm`,
      storeId,
      context,
    );
  }

  async uploadProof(
    storeId: number,
    transactionId: string,
    document: ProofDocument,
    context: CallContext,
  ): Promise<CoreStatusResult> {
    const form = new FormData();
    form.append('storeId', String(storeId));
    form.append(
      'document',
      new Blob([document.content], { type: document.mimeType }),
      document.fileName,
    );
    const reply = await this.send(
      {
        method: 'POST',
        url: `/core/v1/payins/${encodeURIComponent(transactionId)}/proof`,
        data: form,
      },
      context,
    );
    return parseStatusReply(reply);
  }

  async createPayout(
    request: CorePayoutCreateRequest,
    context: CallContext,
  ): Promise<CoreCreateResult> {
    return parseCreateReply(
      await this.send({ method: 'POST', url: '/core/v1/payouts', data: request }, context),
    );
  }

  async cancelPayout(
    storeId: number,
    transactionId: string,
    context: CallContext,
  ): Promise<CoreStatusResult> {
    return this.move(
      `/core/v1/payouts/${encodeURIComponent(transactionId)}/cancel`,
      storeId,
      context,
    );
  }

  private async move(
    url: string,
    storeId: number,
    context: CallContext,
  ): Promise<CoreStatusResult> {
    return parseStatusReply(await this.send({ method: 'POST', url, data: { storeId } }, context));
  }

  /**
   * One round trip. Every HTTP status resolves (the transformers judge it); only a missing reply
   * throws. The call goes to HttpModule's axios instance directly: HttpService's Observable
   * cancels each finished request on teardown, which built and dropped an error (stack trace
   * included) per call.
   */
  private async send(request: CoreRequest, context: CallContext): Promise<CoreReply> {
    let response: AxiosResponse<string>;
    try {
      // One object literal with every key: adding keys to a spread copy of `request` made V8
      // build a hidden class per call, in the old generation (docs/benchmarks.md, "The
      // validation pipe's hidden classes").
      response = await this.http.axiosRef.request<string>({
        method: request.method,
        url: request.url,
        data: request.data,
        baseURL: this.options.baseUrl,
        timeout: this.options.timeoutMs,
        headers: {
          authorization: `Bearer ${this.options.serviceToken}`,
          accept: 'application/json',
          ...(context.requestId ? { 'x-request-id': context.requestId } : {}),
        },
        responseType: 'text',
        // Keep the body as received: whether it is JSON is the transformers' question.
        transformResponse: [(data: unknown) => data],
        validateStatus: () => true,
        maxRedirects: 0,
        // The core is on the gateway's own network: HTTP_PROXY and the like (meant for outbound
        // traffic) never apply to it. Without this, axios also read those variables on every call.
        proxy: false,
        maxContentLength: MAX_REPLY_BYTES,
        maxBodyLength: MAX_REQUEST_BYTES,
        transitional: { clarifyTimeoutError: true },
      });
    } catch (error) {
      const failure = error as { code?: string; message?: string };
      throw transportFailure({ code: failure.code, message: failure.message ?? String(error) });
    }
    const contentType = response.headers['content-type'];
    return {
      status: response.status,
      contentType: typeof contentType === 'string' ? contentType : undefined,
      body: typeof response.data === 'string' ? response.data : '',
    };
  }
}
