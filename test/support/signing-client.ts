import request from 'supertest';
import { pathPayload, sign } from '@app/signature';

export interface StoreCredentials {
  publicToken: string;
  privateToken: string;
}

/**
 * What a merchant's integration does: signs each request per merchant-api.md section 5 with
 * `libs/signature` and sends it with `x-public-token`. Tests that need a broken request use
 * supertest directly.
 */
export class SigningClient {
  constructor(
    readonly baseUrl: string,
    readonly store: StoreCredentials,
  ) {}

  /** GET with query parameters, signed over the query. */
  get(path: string, query: Record<string, string | number> = {}) {
    const signature = sign(query, this.store.privateToken);
    return request(this.baseUrl).get(path).set('x-public-token', this.store.publicToken).query({ ...query, signature });
  }

  /** POST/PUT/PATCH/DELETE with a JSON body, signed over the body. */
  send(method: 'post' | 'put' | 'patch' | 'delete', path: string, body: Record<string, unknown>) {
    const signature = sign(body, this.store.privateToken);
    return request(this.baseUrl)[method](path).set('x-public-token', this.store.publicToken).send({ ...body, signature });
  }

  /** A path endpoint: `transactionId` and `signature`, in the query for GET, else in the body. */
  onTransaction(method: 'get' | 'delete' | 'patch', resource: 'payin' | 'payout', transactionId: string) {
    const path = `/api/v1/${resource}/${transactionId}`;
    const signature = sign(pathPayload(transactionId), this.store.privateToken);
    const base = request(this.baseUrl)[method](path).set('x-public-token', this.store.publicToken);
    return method === 'get' ? base.query({ transactionId, signature }) : base.send({ transactionId, signature });
  }

  /** Proof upload: multipart with the file in `document`, `transactionId` and `signature` as text fields. */
  uploadProof(transactionId: string, file: Buffer, filename: string, contentType: string) {
    const signature = sign(pathPayload(transactionId), this.store.privateToken);
    return request(this.baseUrl)
      .post(`/api/v1/payin/${transactionId}`)
      .set('x-public-token', this.store.publicToken)
      .field('transactionId', transactionId)
      .field('signature', signature)
      .attach('document', file, { filename, contentType });
  }
}
