import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { baselinePayload } from './baseline-payload';

/**
 * Baseline 2: a bare NestJS app on platform-express, one controller, no middleware, guard, pipe
 * or logger of ours: what the framework alone costs. Same route and payload as the read (a).
 */
const payload = baselinePayload();

@Controller('api/v1/payin')
class BareController {
  @Get(':transactionId')
  read(): Record<string, unknown> {
    return payload;
  }
}

@Module({ controllers: [BareController] })
class BareModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create<NestExpressApplication>(BareModule, {
    logger: ['error', 'warn'],
  });
  app.enableShutdownHooks();
  await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
  process.stdout.write(`bare NestJS baseline listening on ${String(await app.getUrl())}\n`);
}

void main();
