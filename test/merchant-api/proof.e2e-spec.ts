import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { pathPayload, sign } from '@app/signature';
import { GIF, JPEG, PDF, PNG, pngOfSize, SVG, TEXT } from '../support/documents';
import type { SigningClient } from '../support/signing-client';
import { startSystem, TestSystem } from '../support/system';
import { merchantKit, TestMerchant } from './merchant-kit';

const TEN_MB = 10 * 1024 * 1024;

/** merchant-api.md 4.5, decisions.md section 3: proof files, typed by content, at most 10 MB. */
describe('proof of payment upload', () => {
  let system: TestSystem;
  let kit: ReturnType<typeof merchantKit>;
  let merchant: TestMerchant;
  let client: SigningClient;
  const storageDir = mkdtempSync(join(tmpdir(), 'gw-h2-proofs-'));
  const bigTempFiles = (): string[] =>
    readdirSync(tmpdir()).filter((name) => {
      try {
        const info = statSync(join(tmpdir(), name));
        return info.isFile() && info.size >= 1024 * 1024;
      } catch {
        return false;
      }
    });
  const storedFiles = (): string[] => readdirSync(storageDir);
  let tempBefore: string[];

  beforeAll(async () => {
    system = await startSystem({ STORAGE_DIR: storageDir });
    kit = merchantKit(system);
    merchant = await kit.merchant();
    client = merchant.client;
    tempBefore = bigTempFiles();
  });
  afterAll(async () => {
    await system.close();
    rmSync(storageDir, { recursive: true, force: true });
  });

  /** The core serves files under PUBLIC_BASE_URL; tests reach the core at its real port. */
  const fetchFile = (fileUrl: string) => {
    const url = new URL(fileUrl);
    return request(system.core.url)
      .get(`${url.pathname}${url.search}`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
  };

  describe('accepted types', () => {
    it.each([
      ['PNG', PNG, 'receipt.png', 'image/png', 'image/png'],
      ['PDF', PDF, 'receipt.pdf', 'application/pdf', 'application/pdf'],
      ['JPEG declared as octet-stream', JPEG, 'scan', 'application/octet-stream', 'image/jpeg'],
    ])(
      'accepts %s, moves the payin to processing and links the stored file',
      async (_name, file, filename, declared, detected) => {
        const { transactionId } = await kit.payin(client);
        const res = await client.uploadProof(transactionId, file, filename, declared).expect(200);
        expect(res.body.message).toBe('OK');
        expect(res.body.data.status).toBe('processing');
        expect(res.body.data.proof.file).toEqual({
          fileUrl: expect.stringMatching(/\/files\/.+\?expires=\d+&sig=[0-9a-f]{64}$/),
          mimeType: detected,
          fileName: expect.any(String),
        });
        const served = await fetchFile(res.body.data.proof.file.fileUrl).expect(200);
        expect(served.headers['content-disposition']).toMatch(/^attachment/);
        expect(served.headers['x-content-type-options']).toBe('nosniff');
        expect(served.headers['content-type']).toContain(detected);
        expect(Buffer.compare(served.body as Buffer, file)).toBe(0);
        const read = await client.onTransaction('get', 'payin', transactionId).expect(200);
        expect(read.body.data.proof.file.mimeType).toBe(detected);
      },
    );

    it('accepts a file of exactly 10 MB', async () => {
      const { transactionId } = await kit.payin(client);
      await client
        .uploadProof(transactionId, pngOfSize(TEN_MB), 'big.png', 'image/png')
        .expect(200);
    });

    it('accepts a proof an operator requested: proof_requested moves back to processing, ping stays true', async () => {
      const { transactionId } = await kit.payin(client);
      await client.onTransaction('patch', 'payin', transactionId).expect(200);
      expect((await kit.ops.setStatus(transactionId, 'proof_requested')).status).toBe(200);
      const res = await client
        .uploadProof(transactionId, PNG, 'again.png', 'image/png')
        .expect(200);
      expect(res.body.data.status).toBe('processing');
      expect(res.body.data.proof.ping).toBe(true);
    });
  });

  describe('refused files leave the payin unchanged', () => {
    it.each([
      ['GIF', GIF, 'a.gif', 'image/gif'],
      ['SVG', SVG, 'a.svg', 'image/svg+xml'],
      ['GIF declared as JPEG', GIF, 'photo.jpg', 'image/jpeg'],
      ['text declared as PDF', TEXT, 'receipt.pdf', 'application/pdf'],
      ['an empty file', Buffer.alloc(0), 'empty.png', 'image/png'],
    ])(
      'refuses %s with 400 ERROR_INVALID_DOCUMENT_TYPE',
      async (_name, file, filename, declared) => {
        const { transactionId } = await kit.payin(client);
        await client
          .uploadProof(transactionId, file, filename, declared)
          .expect(400, { message: 'ERROR_INVALID_DOCUMENT_TYPE' });
        expect(await kit.storedStatus(transactionId)).toBe('pending');
      },
    );

    it('refuses 10 MB + 1 byte with 413 ERROR_FILE_TOO_LARGE', async () => {
      const { transactionId } = await kit.payin(client);
      await client
        .uploadProof(transactionId, pngOfSize(TEN_MB + 1), 'big.png', 'image/png')
        .expect(413, { message: 'ERROR_FILE_TOO_LARGE' });
      expect(await kit.storedStatus(transactionId)).toBe('pending');
    });

    it('refuses an upload without a file with 400 ERROR_INVALID_REQUEST naming document', async () => {
      const { transactionId } = await kit.payin(client);
      const signature = sign(pathPayload(transactionId), merchant.store.privateToken);
      const res = await request(system.api.url)
        .post(`/api/v1/payin/${transactionId}`)
        .set('x-public-token', merchant.store.publicToken)
        .field('transactionId', transactionId)
        .field('signature', signature)
        .expect(400);
      expect(res.body).toEqual({
        message: 'ERROR_INVALID_REQUEST',
        details: [{ field: 'document', errors: [expect.any(String)] }],
      });
      const json = await client
        .send('post', `/api/v1/payin/${transactionId}`, { transactionId })
        .expect(400);
      expect(json.body.details[0].field).toBe('document');
    });

    it('refuses two files, and a file in another field, with 400 ERROR_INVALID_REQUEST', async () => {
      const { transactionId } = await kit.payin(client);
      const signature = sign(pathPayload(transactionId), merchant.store.privateToken);
      const base = () =>
        request(system.api.url)
          .post(`/api/v1/payin/${transactionId}`)
          .set('x-public-token', merchant.store.publicToken)
          .field('signature', signature);
      const two = await base()
        .attach('document', PNG, 'a.png')
        .attach('document', PNG, 'b.png')
        .expect(400);
      expect(two.body.message).toBe('ERROR_INVALID_REQUEST');
      const elsewhere = await base().attach('receipt', PNG, 'a.png').expect(400);
      expect(elsewhere.body.message).toBe('ERROR_INVALID_REQUEST');
      expect(await kit.storedStatus(transactionId)).toBe('pending');
    });

    it('answers a truncated multipart body with the JSON envelope', async () => {
      const { transactionId } = await kit.payin(client);
      const signature = sign(pathPayload(transactionId), merchant.store.privateToken);
      const boundary = 'gw-boundary';
      const truncated = [
        `--${boundary}`,
        'Content-Disposition: form-data; name="signature"',
        '',
        signature,
        `--${boundary}`,
        'Content-Disposition: form-data; name="document"; filename="a.png"',
        'Content-Type: image/png',
        '',
        PNG.toString('latin1'),
      ].join('\r\n');
      const res = await request(system.api.url)
        .post(`/api/v1/payin/${transactionId}`)
        .set('x-public-token', merchant.store.publicToken)
        .set('content-type', `multipart/form-data; boundary=${boundary}`)
        .send(Buffer.from(truncated, 'latin1'))
        .expect(400);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.body.message).toBe('ERROR_INVALID_REQUEST');
    });

    it('survives a client that aborts mid-upload and keeps serving', async () => {
      const { transactionId } = await kit.payin(client);
      const url = new URL(system.api.url);
      await new Promise<void>((resolve) => {
        const socket = connect(Number(url.port), url.hostname, () => {
          socket.write(
            `POST /api/v1/payin/${transactionId} HTTP/1.1\r\nHost: x\r\nx-public-token: ${merchant.store.publicToken}\r\n` +
              `Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 5000000\r\n\r\n--b\r\nContent-Disposition: form-data; name="document"; filename="a.png"\r\n\r\n`,
          );
          socket.write(PNG, () => setTimeout(() => socket.destroy(), 50));
        });
        socket.on('close', () => resolve());
        socket.on('error', () => resolve());
      });
      await client.onTransaction('get', 'payin', transactionId).expect(200);
      expect(await kit.storedStatus(transactionId)).toBe('pending');
    });
  });

  it('leaves no temporary files behind: memory storage here, only accepted proofs in the core storage', async () => {
    const kept = await kit.payin(client);
    await client.uploadProof(kept.transactionId, PNG, 'kept.png', 'image/png').expect(200);
    const refusedOne = await kit.payin(client);
    await client
      .uploadProof(refusedOne.transactionId, pngOfSize(TEN_MB + 1), 'big.png', 'image/png')
      .expect(413);
    await client.uploadProof(refusedOne.transactionId, GIF, 'a.gif', 'image/gif').expect(400);
    const accepted = await kit
      .db()
      .query(
        `SELECT count(*)::int AS n FROM transactions WHERE merchant_id = $1 AND proof_file_key IS NOT NULL`,
        [merchant.store.merchantId],
      );
    expect(accepted[0].n).toBeGreaterThanOrEqual(1);
    expect(storedFiles()).toHaveLength(accepted[0].n);
    const created = bigTempFiles().filter((name) => !tempBefore.includes(name));
    expect(created).toEqual([]);
  });
});
