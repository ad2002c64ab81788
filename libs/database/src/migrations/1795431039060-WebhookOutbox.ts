import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Hand-written: the webhook outbox and its delivery log (decisions.md section 5).
 * - `webhook_events` is written in the same transaction as a status change; the partial index on
 *   due pending rows keeps the dispatcher's claim query cheap however many delivered rows pile up.
 * - `webhook_deliveries` is one row per attempt, read by the admin transaction view.
 */
export class WebhookOutbox1795431039060 implements MigrationInterface {
  name = 'WebhookOutbox1795431039060';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhook_events" ("id" uuid NOT NULL, "transaction_id" uuid NOT NULL, "merchant_id" integer NOT NULL, "store_id" integer NOT NULL, "payload" jsonb NOT NULL, "url" text NOT NULL, "method" character varying(4) NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'pending', "attempts" integer NOT NULL DEFAULT 0, "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL, "locked_until" TIMESTAMP WITH TIME ZONE, "lease_token" uuid, "delivered_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "webhook_events_status_valid" CHECK ("status" IN ('pending', 'delivered', 'failed')), CONSTRAINT "webhook_events_method_valid" CHECK ("method" IN ('get', 'post')), CONSTRAINT "webhook_events_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "webhook_events_due_idx" ON "webhook_events" ("next_attempt_at") WHERE "status" = 'pending'`,
    );
    await queryRunner.query(
      `CREATE INDEX "webhook_events_transaction_idx" ON "webhook_events" ("transaction_id", "created_at")`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_transaction_id_fkey" FOREIGN KEY ("transaction_id") REFERENCES "transactions"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_deliveries" ("id" BIGSERIAL NOT NULL, "event_id" uuid NOT NULL, "attempted_at" TIMESTAMP WITH TIME ZONE NOT NULL, "url" text NOT NULL, "status_code" integer, "duration_ms" integer NOT NULL, "response_prefix" character varying(256), "error" character varying(500), CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries" ("event_id", "id")`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "webhook_events"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
    await queryRunner.query(`DROP TABLE "webhook_events"`);
  }
}
