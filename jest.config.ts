import type { Config } from 'jest';

const moduleNameMapper = {
  '^@app/(config|database|signature|errors|crypto|documents|observability|auth|core-client|redis)$': '<rootDir>/libs/$1/src',
};
const transform: Record<string, [string, Record<string, unknown>]> = { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] };

/**
 * `npm test` runs both projects. Unit specs sit beside the code; e2e suites in test/ boot the
 * real apps against the PostgreSQL of DATABASE_URL (or an embedded one) and REDIS_URL if set.
 */
const config: Config = {
  maxWorkers: 2,
  testTimeout: 60_000,
  projects: [
    {
      displayName: 'unit',
      rootDir: '.',
      testMatch: ['<rootDir>/apps/**/*.spec.ts', '<rootDir>/libs/**/*.spec.ts', '<rootDir>/scripts/**/*.spec.ts', '<rootDir>/bench/**/*.spec.ts'],
      testEnvironment: 'node',
      transform,
      moduleNameMapper,
    },
    {
      displayName: 'e2e',
      rootDir: '.',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      testEnvironment: 'node',
      transform,
      moduleNameMapper,
      globalSetup: '<rootDir>/test/setup/global-setup.ts',
      globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
    },
  ],
};

export default config;
