import 'reflect-metadata';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppConfig, loadConfig } from '@app/config';
import { listen } from '@app/observability';
import { createCoreApp } from '../../apps/core/src/bootstrap';
import { createMerchantApiApp } from '../../apps/merchant-api/src/bootstrap';

export interface RunningApp {
  app: NestExpressApplication;
  url: string;
  config: AppConfig;
}

/** Test configuration: the run's DATABASE_URL and REDIS_URL, free ports, quiet logs, plus overrides. */
export function testConfig(overrides: Record<string, string> = {}): AppConfig {
  return loadConfig({
    ...process.env,
    MERCHANT_API_PORT: '0',
    CORE_PORT: '0',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    // Every dispatcher works every store's outbox: a suite's core would deliver (and retry on its
    // own schedule) the notifications another suite is asserting on. The webhook suites turn it on.
    WEBHOOK_DISPATCHER_ENABLED: 'false',
    ...overrides,
  });
}

/** The real core app, listening on a free loopback port. */
export async function startCore(overrides: Record<string, string> = {}): Promise<RunningApp> {
  const config = testConfig(overrides);
  const app = await createCoreApp(config);
  const url = await listen(app, '127.0.0.1', 0);
  return { app, url, config };
}

/** The real merchant API, calling the core at `coreUrl`. */
export async function startMerchantApi(coreUrl: string, overrides: Record<string, string> = {}): Promise<RunningApp> {
  const config = testConfig({ CORE_URL: coreUrl, ...overrides });
  const app = await createMerchantApiApp(config);
  const url = await listen(app, '127.0.0.1', 0);
  return { app, url, config };
}

export interface TestSystem {
  core: RunningApp;
  api: RunningApp;
  close(): Promise<void>;
}

/** Both apps, wired together the way `npm start` wires them. */
export async function startSystem(overrides: Record<string, string> = {}): Promise<TestSystem> {
  const core = await startCore(overrides);
  const api = await startMerchantApi(core.url, overrides);
  return {
    core,
    api,
    close: async () => {
      await api.app.close();
      await core.app.close();
    },
  };
}
