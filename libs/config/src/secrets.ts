import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, EnvReader } from './env';

export interface Secrets {
  adminToken: string;
  coreServiceToken: string;
  /** 32-byte key for AES-256-GCM of private tokens, card numbers and webhook secrets. */
  encryptionKey: Buffer;
  /** HMAC key of expiring proof-file links. */
  fileUrlKey: string;
}

interface SecretsFile {
  ADMIN_TOKEN: string;
  CORE_SERVICE_TOKEN: string;
  ENCRYPTION_KEY: string;
  FILE_URL_KEY: string;
}

function generate(): SecretsFile {
  return {
    ADMIN_TOKEN: `adm_${randomBytes(24).toString('base64url')}`,
    CORE_SERVICE_TOKEN: `svc_${randomBytes(24).toString('base64url')}`,
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    FILE_URL_KEY: randomBytes(32).toString('base64url'),
  };
}

/**
 * Reads `<dataDir>/secrets.json`, creating it on first use with fresh random values, so that
 * processes starting at once agree on one set. The candidate is written whole to a file of this
 * process's own and then hard-linked to the shared name: the link fails if the name exists, and a
 * reader never sees the file half-written (an exclusive create followed by a write would show it
 * empty to a process that starts in between).
 */
export function readOrCreateSecretsFile(dataDir: string): SecretsFile {
  const path = join(dataDir, 'secrets.json');
  mkdirSync(dataDir, { recursive: true });
  const candidate = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(candidate, JSON.stringify(generate(), null, 2) + '\n', { flag: 'wx', mode: 0o600 });
  try {
    linkSync(candidate, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(candidate, { force: true });
  }
  return JSON.parse(readFileSync(path, 'utf8')) as SecretsFile;
}

/** Each secret comes from its variable when set, else from the generated file under the data dir. */
export function loadSecrets(env: EnvReader, dataDir: string): Secrets {
  const names = ['ADMIN_TOKEN', 'CORE_SERVICE_TOKEN', 'ENCRYPTION_KEY', 'FILE_URL_KEY'] as const;
  const fromEnv = Object.fromEntries(names.map((name) => [name, env.optional(name)]));
  const file = names.every((name) => fromEnv[name]) ? undefined : readOrCreateSecretsFile(dataDir);
  const pick = (name: (typeof names)[number]): string => fromEnv[name] ?? file![name];

  const adminToken = pick('ADMIN_TOKEN');
  if (adminToken.length < 16)
    throw new ConfigError('ADMIN_TOKEN', 'must be at least 16 characters');
  const coreServiceToken = pick('CORE_SERVICE_TOKEN');
  if (coreServiceToken.length < 16)
    throw new ConfigError('CORE_SERVICE_TOKEN', 'must be at least 16 characters');
  const encryptionKey = Buffer.from(pick('ENCRYPTION_KEY'), 'base64');
  if (encryptionKey.length !== 32)
    throw new ConfigError('ENCRYPTION_KEY', 'must be 32 bytes, base64-encoded');
  const fileUrlKey = pick('FILE_URL_KEY');
  if (fileUrlKey.length < 16)
    throw new ConfigError('FILE_URL_KEY', 'must be at least 16 characters');
  return { adminToken, coreServiceToken, encryptionKey, fileUrlKey };
}
