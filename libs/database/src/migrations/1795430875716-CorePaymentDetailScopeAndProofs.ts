import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Hand-written, for the processing core:
 * - payment details may belong to one merchant (that merchant then draws only from its own);
 * - the pool counts a detail's pending payins on every create, so that count has a partial index;
 * - the file endpoint finds a proof by its storage key, which is unique;
 * - limits on a detail are non-negative.
 */
export class CorePaymentDetailScopeAndProofs1795430875716 implements MigrationInterface {
  name = 'CorePaymentDetailScopeAndProofs1795430875716';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payment_details" ADD "merchant_id" integer`);
    await queryRunner.query(
      `ALTER TABLE "payment_details" ADD CONSTRAINT "payment_details_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE INDEX "payment_details_merchant_id_idx" ON "payment_details" ("merchant_id") WHERE "merchant_id" IS NOT NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE "payment_details" ADD CONSTRAINT "payment_details_limits_non_negative" CHECK (("max_pending" IS NULL OR "max_pending" >= 0) AND ("min_amount" IS NULL OR "min_amount" >= 0) AND ("max_amount" IS NULL OR "max_amount" >= 0))`,
    );
    await queryRunner.query(
      `CREATE INDEX "transactions_payment_detail_pending_idx" ON "transactions" ("payment_detail_id") WHERE "status" = 'pending' AND "type" = 'payin'`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "transactions_proof_file_key_key" ON "transactions" ("proof_file_key") WHERE "proof_file_key" IS NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."transactions_proof_file_key_key"`);
    await queryRunner.query(`DROP INDEX "public"."transactions_payment_detail_pending_idx"`);
    await queryRunner.query(
      `ALTER TABLE "payment_details" DROP CONSTRAINT "payment_details_limits_non_negative"`,
    );
    await queryRunner.query(`DROP INDEX "public"."payment_details_merchant_id_idx"`);
    await queryRunner.query(
      `ALTER TABLE "payment_details" DROP CONSTRAINT "payment_details_merchant_id_fkey"`,
    );
    await queryRunner.query(`ALTER TABLE "payment_details" DROP COLUMN "merchant_id"`);
  }
}
