import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { readOrCreateSecretsFile } from './secrets';

/**
 * Each worker thread loads the module itself and, for every directory in turn, waits at a
 * barrier with the others and then creates-or-reads that directory's secrets, all at the same
 * moment. Answers the encryption key each call returned, or the error it threw.
 */
const WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
require('ts-node/register/transpile-only');
const { readOrCreateSecretsFile } = require(workerData.module);
const barrier = new Int32Array(workerData.barrier); // [arrived, generation]
const answers = [];
for (const dir of workerData.dirs) {
  const generation = Atomics.load(barrier, 1);
  if (Atomics.add(barrier, 0, 1) === workerData.threads - 1) {
    Atomics.store(barrier, 0, 0);
    Atomics.add(barrier, 1, 1);
    Atomics.notify(barrier, 1);
  } else {
    while (Atomics.load(barrier, 1) === generation) Atomics.wait(barrier, 1, generation, 1000);
  }
  try {
    answers.push(readOrCreateSecretsFile(dir).ENCRYPTION_KEY);
  } catch (error) {
    answers.push('error: ' + error.message);
  }
}
parentPort.postMessage(answers);
`;

describe('readOrCreateSecretsFile', () => {
  it('creates the file once, readable by its owner only, and leaves nothing else behind', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-secrets-'));
    const first = readOrCreateSecretsFile(dataDir);
    expect(readOrCreateSecretsFile(dataDir)).toEqual(first);
    expect(readdirSync(dataDir)).toEqual(['secrets.json']);
    expect(statSync(join(dataDir, 'secrets.json')).mode & 0o777).toBe(0o600);
  });

  // Both services, and every e2e suite (one shared .data/test), may start at the same moment on
  // an empty data directory; none may read the file before it is whole.
  it('gives callers racing on an empty directory one and the same set', async () => {
    const threads = 4;
    const root = mkdtempSync(join(tmpdir(), 'gw-secrets-race-'));
    const dirs = Array.from({ length: 150 }, (_, i) => join(root, String(i)));
    const barrier = new SharedArrayBuffer(8);
    const answers = await Promise.all(
      Array.from(
        { length: threads },
        () =>
          new Promise<string[]>((resolve, reject) => {
            const worker = new Worker(WORKER, {
              eval: true,
              workerData: { module: join(__dirname, 'secrets'), dirs, barrier, threads },
            });
            worker.once('message', resolve);
            worker.once('error', reject);
          }),
      ),
    );
    const failures = dirs.flatMap((dir, i) => {
      const keys = new Set(answers.map((perThread) => perThread[i]));
      return keys.size === 1 && ![...keys][0].startsWith('error') ? [] : [[...keys].join(' / ')];
    });
    expect(failures).toEqual([]);
    for (const dir of dirs) expect(readdirSync(dir)).toEqual(['secrets.json']);
  }, 60_000);
});
