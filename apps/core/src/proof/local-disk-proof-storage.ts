import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { PROOF_KEY_PATTERN, ProofStorage } from './proof-storage';

/**
 * Proofs on the local disk under STORAGE_DIR (default `.data/proofs`), outside any web root:
 * they are only ever served by the signed `/files/:key` endpoint. Files are private to the
 * process user and never overwritten.
 */
export class LocalDiskProofStorage implements ProofStorage {
  private ready?: Promise<void>;

  constructor(private readonly dir: string) {}

  newKey(extension: string): string {
    return `${randomBytes(16).toString('hex')}.${extension}`;
  }

  async write(key: string, content: Buffer): Promise<void> {
    await this.ensureDir();
    await writeFile(this.path(key), content, { flag: 'wx', mode: 0o600 });
  }

  async read(key: string): Promise<{ stream: Readable; size: number } | null> {
    const path = this.path(key);
    try {
      const info = await stat(path);
      if (!info.isFile()) return null;
      return { stream: createReadStream(path), size: info.size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  private path(key: string): string {
    // Keys are made by newKey; anything else could be a path trick.
    if (!PROOF_KEY_PATTERN.test(key)) throw new Error('not a proof storage key');
    return join(this.dir, key);
  }

  private ensureDir(): Promise<void> {
    this.ready ??= mkdir(this.dir, { recursive: true, mode: 0o700 }).then(
      () => undefined,
      (error: unknown) => {
        this.ready = undefined;
        throw error;
      },
    );
    return this.ready;
  }
}
