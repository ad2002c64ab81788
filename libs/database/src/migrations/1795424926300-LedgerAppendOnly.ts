import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Hand-written: the ledger and the status history are append-only. A trigger refuses UPDATE
 * and DELETE on them, so not even a bug in the core can rewrite money history.
 */
export class LedgerAppendOnly1795424926300 implements MigrationInterface {
  name = 'LedgerAppendOnly1795424926300';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION forbid_history_rewrite() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'table % is append-only', TG_TABLE_NAME USING ERRCODE = 'integrity_constraint_violation';
      END $$`);
    await queryRunner.query(
      `CREATE TRIGGER balance_changes_append_only BEFORE UPDATE OR DELETE ON "balance_changes" FOR EACH ROW EXECUTE FUNCTION forbid_history_rewrite()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER transaction_status_changes_append_only BEFORE UPDATE OR DELETE ON "transaction_status_changes" FOR EACH ROW EXECUTE FUNCTION forbid_history_rewrite()`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER transaction_status_changes_append_only ON "transaction_status_changes"`);
    await queryRunner.query(`DROP TRIGGER balance_changes_append_only ON "balance_changes"`);
    await queryRunner.query(`DROP FUNCTION forbid_history_rewrite()`);
  }
}
