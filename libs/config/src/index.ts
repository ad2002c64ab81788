export { loadConfig, loadConfigOrExit, type AppConfig, type CoreConfig, type MerchantApiConfig, type DatabaseConfig, type RedisConfig } from './config';
export { ConfigError, redactUrl } from './env';
export { applyRuntimeSettings } from './runtime';
export { type Secrets, readOrCreateSecretsFile } from './secrets';
export { ConfigModule, APP_CONFIG } from './config.module';
