import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Agent } from 'node:http';
import { Body, Controller, Get, HttpCode, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import axios from 'axios';
import { Pool } from 'pg';

/**
 * Baseline 3, the floor of (b): the least a create can cost in the shape the gateway must have
 * (a merchant-facing NestJS app that calls a second NestJS app over HTTP with axios, which
 * writes to PostgreSQL, and then reads the row back), with none of the gateway's work: no
 * signature, validation, rate limit, log line, store or payment-detail lookup, ledger, history,
 * notification or cache. One process per role, chosen by FLOOR_ROLE: `core` inserts the request
 * as one row (one autocommit statement); `api` forwards each create to the core and answers the
 * row it reads back by primary key. Both use pg pools of 10, as the gateway does. The core
 * creates its table in the run's database when it starts.
 */
const FLOOR_TABLE = 'bench_floor_transactions';

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });

@Controller('core/v1/payins')
class FloorCoreController {
  @Get('ready')
  ready(): string {
    return 'ready';
  }

  @Post()
  @HttpCode(200)
  async create(@Body() body: { amount?: unknown }): Promise<{ transactionId: string }> {
    const id = randomUUID();
    await pool.query({
      name: 'floor-insert',
      text: `INSERT INTO ${FLOOR_TABLE} (id, amount, request) VALUES ($1, $2, $3)`,
      values: [id, Number(body.amount) || 0, JSON.stringify(body)],
    });
    return { transactionId: id };
  }
}

const core = axios.create({
  baseURL: process.env.CORE_URL,
  httpAgent: new Agent({ keepAlive: true, maxSockets: 128 }),
  proxy: false,
});

@Controller('api/v1/payin')
class FloorApiController {
  @Get('ready')
  ready(): string {
    return 'ready';
  }

  @Post()
  @HttpCode(200)
  async create(@Body() body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const reply = await core.post<{ transactionId: string }>('/core/v1/payins', body);
    const { rows } = await pool.query<Record<string, unknown>>({
      name: 'floor-read',
      text: `SELECT id, amount, request, created_at FROM ${FLOOR_TABLE} WHERE id = $1`,
      values: [reply.data.transactionId],
    });
    return { message: 'OK', data: rows[0] };
  }
}

@Module({ controllers: [FloorCoreController] })
class FloorCoreModule {}

@Module({ controllers: [FloorApiController] })
class FloorApiModule {}

async function main(): Promise<void> {
  const role = process.env.FLOOR_ROLE;
  if (role !== 'core' && role !== 'api') throw new Error('FLOOR_ROLE must be core or api');
  if (role === 'core')
    await pool.query(`CREATE TABLE IF NOT EXISTS ${FLOOR_TABLE} (
      id uuid PRIMARY KEY,
      amount numeric(18, 2) NOT NULL,
      request jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
  const app = await NestFactory.create<NestExpressApplication>(
    role === 'core' ? FloorCoreModule : FloorApiModule,
    { logger: ['error', 'warn'] },
  );
  app.enableShutdownHooks();
  await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
  process.stdout.write(`create floor (${role}) listening on ${String(await app.getUrl())}\n`);
}

void main();
