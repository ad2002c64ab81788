import type { Readable } from 'node:stream';

/**
 * Where proof files live. The core only ever names files by keys this storage made up, so a
 * client-supplied name never reaches a path. The local-disk implementation is the default; an
 * object store would implement the same four calls.
 */
export interface ProofStorage {
  /** A fresh random key ending in the type's extension. */
  newKey(extension: string): string;
  write(key: string, content: Buffer): Promise<void>;
  /** Null when there is no such file. */
  read(key: string): Promise<{ stream: Readable; size: number } | null>;
  remove(key: string): Promise<void>;
}

export const PROOF_STORAGE = Symbol('PROOF_STORAGE');

/** 32 hex characters of randomness, a dot, a short lower-case extension. */
export const PROOF_KEY_PATTERN = /^[0-9a-f]{32}\.[a-z0-9]{2,5}$/;
