import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { DynamicModule, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { HttpModule } from '@nestjs/axios';
import { APP_CONFIG, AppConfig } from '@app/config';
import { CORE_CLIENT_OPTIONS, CoreClient, CoreClientOptions } from './core-client.service';

const CORE_AGENTS = Symbol('CORE_AGENTS');

interface CoreAgents {
  http: HttpAgent;
  https: HttpsAgent;
}

/** Longest a connection to the core may sit idle in the pool; the core's Keep-Alive hint shortens it. */
export const IDLE_SOCKET_TIMEOUT_MS = 60_000;

/**
 * Reused connections to the core: a TLS or TCP handshake per merchant request would dominate
 * latency. Node's agent follows the server's `Keep-Alive: timeout=N` hint (closing an idle socket
 * a second before the server does) only when the agent has a timeout of its own; without one it
 * kept idle sockets forever, and a request now and then went out on a socket the core was closing
 * at that moment: a 502 for the merchant (seen once in 49,000 requests of the benchmark's soak).
 * Requests in flight are bounded by CORE_TIMEOUT_MS, which axios sets per request.
 */
export function createAgents(): CoreAgents {
  const options = {
    keepAlive: true,
    keepAliveMsecs: 1000,
    maxSockets: 128,
    maxFreeSockets: 32,
    timeout: IDLE_SOCKET_TIMEOUT_MS,
  };
  return { http: new HttpAgent(options), https: new HttpsAgent(options) };
}

@Injectable()
class CoreAgentsShutdown implements OnApplicationShutdown {
  constructor(@Inject(CORE_AGENTS) private readonly agents: CoreAgents) {}

  onApplicationShutdown(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}

/**
 * The merchant API's client of the core HTTP API (docs/core-api.md), configured from APP_CONFIG.
 * Imported once by the app, global, so every feature shares one pool of connections.
 */
@Module({})
export class CoreClientModule {
  static forRoot(): DynamicModule {
    const agents = createAgents();
    return {
      module: CoreClientModule,
      global: true,
      imports: [HttpModule.register({ httpAgent: agents.http, httpsAgent: agents.https })],
      providers: [
        { provide: CORE_AGENTS, useValue: agents },
        CoreAgentsShutdown,
        {
          provide: CORE_CLIENT_OPTIONS,
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig): CoreClientOptions => ({
            baseUrl: config.merchantApi.coreUrl,
            timeoutMs: config.merchantApi.coreTimeoutMs,
            serviceToken: config.secrets.coreServiceToken,
          }),
        },
        CoreClient,
      ],
      exports: [CoreClient],
    };
  }
}
