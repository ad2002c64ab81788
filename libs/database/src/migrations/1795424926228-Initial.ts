import { MigrationInterface, QueryRunner } from 'typeorm';

export class Initial1795424926228 implements MigrationInterface {
  name = 'Initial1795424926228';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "admin_audit_log" ("id" BIGSERIAL NOT NULL, "actor" character varying(100) NOT NULL, "action" character varying(100) NOT NULL, "target_type" character varying(50) NOT NULL, "target_id" character varying(64) NOT NULL, "payload" jsonb NOT NULL DEFAULT '{}', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_9425be48a9c753f5753017c61b2" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "admin_audit_log_target_idx" ON "admin_audit_log" ("target_type", "target_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "merchants" ("id" SERIAL NOT NULL, "name" character varying(200) NOT NULL, "payin_enabled" boolean NOT NULL DEFAULT true, "payout_enabled" boolean NOT NULL DEFAULT true, "account_enabled" boolean NOT NULL DEFAULT true, "balance_change_count" bigint NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_4fd312ef25f8e05ad47bfe7ed25" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "stores" ("id" SERIAL NOT NULL, "merchant_id" integer NOT NULL, "name" character varying(200) NOT NULL, "public_token" character varying(100) NOT NULL, "private_token_enc" text NOT NULL, "webhook_secret_enc" text, "webhook_url" text, "webhook_method" character varying(4), "currency" character varying(3) NOT NULL, "exchange_rate" numeric(18,8) NOT NULL DEFAULT '1', "payin_fee_percent" numeric(5,2) NOT NULL DEFAULT '0', "payin_ttl_seconds" integer, "require_replay_protection" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "stores_exchange_rate_positive" CHECK ("exchange_rate" > 0), CONSTRAINT "stores_payin_fee_percent_range" CHECK ("payin_fee_percent" >= 0 AND "payin_fee_percent" < 100), CONSTRAINT "PK_7aa6e7d71fa7acdd7ca43d7c9cb" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "stores_merchant_id_idx" ON "stores" ("merchant_id") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "stores_public_token_key" ON "stores" ("public_token") `,
    );
    await queryRunner.query(
      `CREATE TABLE "balances" ("store_id" integer NOT NULL, "merchant_id" integer NOT NULL, "amount" numeric(20,2) NOT NULL DEFAULT '0', "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "balances_amount_non_negative" CHECK ("amount" >= 0), CONSTRAINT "PK_0197226c41470ddcafad34e3b41" PRIMARY KEY ("store_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "balances_merchant_id_idx" ON "balances" ("merchant_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "balance_changes" ("id" BIGSERIAL NOT NULL, "merchant_id" integer NOT NULL, "seq" bigint NOT NULL, "store_id" integer NOT NULL, "transaction_id" uuid, "flow" character varying(32) NOT NULL, "amount" numeric(20,2) NOT NULL, "balance_before" numeric(20,2) NOT NULL, "balance_after" numeric(20,2) NOT NULL, "comment" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "balance_changes_amount_non_zero" CHECK ("amount" <> 0), CONSTRAINT "balance_changes_after_non_negative" CHECK ("balance_after" >= 0), CONSTRAINT "balance_changes_chain" CHECK ("balance_after" = "balance_before" + "amount"), CONSTRAINT "PK_dae6f21202d87ed004f5ac78740" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "balance_changes_transaction_id_idx" ON "balance_changes" ("transaction_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "balance_changes_store_id_idx" ON "balance_changes" ("store_id", "id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "balance_changes_merchant_seq_key" ON "balance_changes" ("merchant_id", "seq") `,
    );
    await queryRunner.query(
      `CREATE TABLE "idempotency_keys" ("store_id" integer NOT NULL, "key" character varying(255) NOT NULL, "route" character varying(64) NOT NULL, "request_hash" character varying(64) NOT NULL, "response_status" integer, "response_body" jsonb, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_b2c3da2fdf6358405b2bd993d73" PRIMARY KEY ("store_id", "key"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idempotency_keys_expires_at_idx" ON "idempotency_keys" ("expires_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "payment_details" ("id" SERIAL NOT NULL, "card_name" character varying(255), "bank_name" character varying(255), "card_number_enc" text, "card_number_masked" character varying(32), "phone_number" character varying(64), "qr_code" text, "account_number" character varying(64), "iban_number" character varying(64), "min_amount" numeric(20,2), "max_amount" numeric(20,2), "max_pending" integer, "enabled" boolean NOT NULL DEFAULT true, "last_assigned_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "payment_details_amount_range" CHECK ("min_amount" IS NULL OR "max_amount" IS NULL OR "min_amount" <= "max_amount"), CONSTRAINT "PK_309f873cfbc20f57796956a1d33" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "transactions" ("id" uuid NOT NULL, "type" character varying(8) NOT NULL, "merchant_id" integer NOT NULL, "store_id" integer NOT NULL, "external_id" character varying(255), "request_hash" character varying(64) NOT NULL, "status" character varying(20) NOT NULL, "amount" numeric(20,2) NOT NULL, "currency" character varying(3) NOT NULL, "exchange_rate" numeric(18,8) NOT NULL DEFAULT '1', "description" character varying(500), "is_test" boolean NOT NULL DEFAULT false, "client_id" character varying(32), "client_email" character varying(320), "client_name" character varying(255), "client_ip" character varying(64), "client_user_agent" text, "client_country" character varying(64), "client_city" character varying(128), "gate" character varying(100), "payment_method" character varying(100), "success_url" text, "failure_url" text, "webhook_url" text, "webhook_method" character varying(4), "language" character varying(16), "tgbot_id" character varying(64), "payment_detail_id" integer, "pay_card_name" character varying(255), "pay_bank_name" character varying(255), "pay_card_number_enc" text, "pay_card_number_masked" character varying(32), "pay_phone_number" character varying(64), "pay_qr_code" text, "pay_account_number" character varying(64), "pay_iban_number" character varying(64), "proof_requested" boolean NOT NULL DEFAULT false, "proof_file_key" character varying(128), "proof_mime_type" character varying(100), "proof_file_name" character varying(255), "fee_amount" numeric(20,2) NOT NULL DEFAULT '0', "expires_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "transactions_type_valid" CHECK ("type" IN ('payin', 'payout')), CONSTRAINT "transactions_amount_positive" CHECK ("amount" > 0), CONSTRAINT "PK_a219afd8dd77ed80f5a862f1db9" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "transactions_merchant_id_idx" ON "transactions" ("merchant_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "transactions_pending_expiry_idx" ON "transactions" ("expires_at") WHERE "status" = 'pending' AND "type" = 'payin'`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "transactions_store_external_id_key" ON "transactions" ("store_id", "type", "external_id") WHERE "external_id" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE TABLE "transaction_status_changes" ("id" BIGSERIAL NOT NULL, "transaction_id" uuid NOT NULL, "from_status" character varying(20), "to_status" character varying(20) NOT NULL, "actor" character varying(100) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_7129dbcb2727f2993f91cb648d1" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "transaction_status_changes_transaction_idx" ON "transaction_status_changes" ("transaction_id", "id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "used_nonces" ("store_id" integer NOT NULL, "nonce" character varying(128) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_536bc2e2190e00be40a21e91642" PRIMARY KEY ("store_id", "nonce"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "used_nonces_expires_at_idx" ON "used_nonces" ("expires_at") `,
    );
    await queryRunner.query(
      `ALTER TABLE "stores" ADD CONSTRAINT "stores_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "balances" ADD CONSTRAINT "balances_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "balance_changes" ADD CONSTRAINT "balance_changes_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "transactions" ADD CONSTRAINT "transactions_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "transactions" ADD CONSTRAINT "transactions_payment_detail_id_fkey" FOREIGN KEY ("payment_detail_id") REFERENCES "payment_details"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "transaction_status_changes" ADD CONSTRAINT "transaction_status_changes_transaction_id_fkey" FOREIGN KEY ("transaction_id") REFERENCES "transactions"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "transaction_status_changes" DROP CONSTRAINT "transaction_status_changes_transaction_id_fkey"`,
    );
    await queryRunner.query(
      `ALTER TABLE "transactions" DROP CONSTRAINT "transactions_payment_detail_id_fkey"`,
    );
    await queryRunner.query(
      `ALTER TABLE "transactions" DROP CONSTRAINT "transactions_store_id_fkey"`,
    );
    await queryRunner.query(
      `ALTER TABLE "balance_changes" DROP CONSTRAINT "balance_changes_store_id_fkey"`,
    );
    await queryRunner.query(`ALTER TABLE "balances" DROP CONSTRAINT "balances_store_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "stores" DROP CONSTRAINT "stores_merchant_id_fkey"`);
    await queryRunner.query(`DROP INDEX "public"."used_nonces_expires_at_idx"`);
    await queryRunner.query(`DROP TABLE "used_nonces"`);
    await queryRunner.query(`DROP INDEX "public"."transaction_status_changes_transaction_idx"`);
    await queryRunner.query(`DROP TABLE "transaction_status_changes"`);
    await queryRunner.query(`DROP INDEX "public"."transactions_store_external_id_key"`);
    await queryRunner.query(`DROP INDEX "public"."transactions_pending_expiry_idx"`);
    await queryRunner.query(`DROP INDEX "public"."transactions_merchant_id_idx"`);
    await queryRunner.query(`DROP TABLE "transactions"`);
    await queryRunner.query(`DROP TABLE "payment_details"`);
    await queryRunner.query(`DROP INDEX "public"."idempotency_keys_expires_at_idx"`);
    await queryRunner.query(`DROP TABLE "idempotency_keys"`);
    await queryRunner.query(`DROP INDEX "public"."balance_changes_merchant_seq_key"`);
    await queryRunner.query(`DROP INDEX "public"."balance_changes_store_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."balance_changes_transaction_id_idx"`);
    await queryRunner.query(`DROP TABLE "balance_changes"`);
    await queryRunner.query(`DROP INDEX "public"."balances_merchant_id_idx"`);
    await queryRunner.query(`DROP TABLE "balances"`);
    await queryRunner.query(`DROP INDEX "public"."stores_public_token_key"`);
    await queryRunner.query(`DROP INDEX "public"."stores_merchant_id_idx"`);
    await queryRunner.query(`DROP TABLE "stores"`);
    await queryRunner.query(`DROP TABLE "merchants"`);
    await queryRunner.query(`DROP INDEX "public"."admin_audit_log_target_idx"`);
    await queryRunner.query(`DROP TABLE "admin_audit_log"`);
  }
}
