/**
 * The part of `pg` the change listener uses. @types/pg is not installed; TypeORM uses `pg`
 * without types. Delete this file if @types/pg is added to devDependencies.
 */
declare module 'pg' {
  import { EventEmitter } from 'node:events';

  export interface Notification {
    processId: number;
    channel: string;
    payload?: string;
  }

  export interface ClientConfig {
    connectionString?: string;
    application_name?: string;
    keepAlive?: boolean;
    connectionTimeoutMillis?: number;
  }

  export class Client extends EventEmitter {
    constructor(config?: ClientConfig);
    connect(): Promise<void>;
    query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
    end(): Promise<void>;
    on(event: 'notification', listener: (message: Notification) => void): this;
    on(event: 'error', listener: (error: Error) => void): this;
    on(event: 'end', listener: () => void): this;
  }
}
