import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Hand-written, for the processing core: payin creates no longer lock and update a payment
 * detail row to pick it (that serialised every create on the few rows of a pool).
 * - The least recently assigned detail is now read from its latest payin, so that lookup has
 *   an index (one entry per payin, newest first).
 * - When every detail is busy with an in-flight create, the pick rotates by a ticket from this
 *   sequence: nextval never waits for another transaction and is never rolled back.
 */
export class PaymentDetailRotation1795435126846 implements MigrationInterface {
  name = 'PaymentDetailRotation1795435126846';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "transactions_payment_detail_created_idx" ON "transactions" ("payment_detail_id", "created_at" DESC) WHERE "payment_detail_id" IS NOT NULL`,
    );
    await queryRunner.query(`CREATE SEQUENCE "payment_detail_rotation_seq" AS bigint CYCLE`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP SEQUENCE "payment_detail_rotation_seq"`);
    await queryRunner.query(`DROP INDEX "public"."transactions_payment_detail_created_idx"`);
  }
}
