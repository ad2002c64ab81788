import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from './env';
import { loadConfig } from './config';

describe('configuration', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gw-config-'));
  const base = { DATA_DIR: dataDir };

  function errorOf(env: Record<string, string>): string {
    try {
      loadConfig({ ...base, ...env });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('expected a configuration error');
  }

  it('uses the documented defaults when nothing is set', () => {
    const config = loadConfig(base);
    expect(config.database.url).toBeUndefined();
    expect(config.redis.url).toBeUndefined();
    expect(config.merchantApi.port).toBe(3000);
    expect(config.core.port).toBe(3001);
    expect(config.core.publicBaseUrl).toBe('http://127.0.0.1:3001');
    expect(config.core.messengerBotBaseUrl).toBe('https://t.me');
    expect(config.core.defaultCurrency).toBe('USD');
    expect(config.core.payinTtlSeconds).toBe(1800);
    expect(config.core.webhookRetrySchedule).toEqual([10, 60, 300, 1800, 7200, 21600, 43200, 86400]);
    expect(config.merchantApi.rateLimitPoints).toBe(600);
    expect(config.heapGrowingPercent).toBe(0);
  });

  it('generates secrets once under the data directory and reuses them', () => {
    const first = loadConfig(base).secrets;
    const second = loadConfig(base).secrets;
    expect(second.adminToken).toBe(first.adminToken);
    expect(first.encryptionKey).toHaveLength(32);
    const file = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8')) as Record<string, string>;
    expect(file.ADMIN_TOKEN).toBe(first.adminToken);
  });

  it('prefers secrets given in the environment', () => {
    const config = loadConfig({ ...base, ADMIN_TOKEN: 'a-very-long-admin-token' });
    expect(config.secrets.adminToken).toBe('a-very-long-admin-token');
  });

  it.each([
    [{ MERCHANT_API_PORT: 'abc' }, 'MERCHANT_API_PORT must be a whole number'],
    [{ CORE_PORT: '70000' }, 'CORE_PORT must be at most 65535'],
    [{ DATABASE_URL: 'mysql://x@y/z' }, 'DATABASE_URL must use postgres or postgresql'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL must be a URL'],
    [{ REDIS_URL: 'http://localhost' }, 'REDIS_URL must use redis or rediss'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of'],
    [{ WEBHOOK_ALLOW_PRIVATE: 'maybe' }, 'WEBHOOK_ALLOW_PRIVATE must be true or false'],
    [{ WEBHOOK_RETRY_SCHEDULE: '10,soon' }, 'WEBHOOK_RETRY_SCHEDULE must be a comma-separated list'],
    [{ DEFAULT_CURRENCY: 'dollars' }, 'DEFAULT_CURRENCY must be a 3-letter code'],
    [{ TLS_CERT_FILE: '/tmp/cert.pem' }, 'TLS_KEY_FILE must be set together'],
    [{ ADMIN_TOKEN: 'short' }, 'ADMIN_TOKEN must be at least 16 characters'],
    [{ ENCRYPTION_KEY: 'c2hvcnQ=' }, 'ENCRYPTION_KEY must be 32 bytes'],
    [{ HEAP_GROWING_PERCENT: 'some' }, 'HEAP_GROWING_PERCENT must be a whole number'],
    [{ HEAP_GROWING_PERCENT: '500' }, 'HEAP_GROWING_PERCENT must be at most 400'],
  ])('stops on %j with a message naming the variable', (env, message) => {
    expect(errorOf(env)).toContain(`configuration error: ${message}`);
  });

  it('never prints a database password in an error', () => {
    expect(errorOf({ DATABASE_URL: 'mysql://user:hunter2@db/x' })).not.toContain('hunter2');
  });
});
