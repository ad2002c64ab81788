import type { Transaction } from '@app/database';
import {
  packTransactionRecord,
  toTransactionRecord,
  TRANSACTION_RECORD_COLUMNS,
  TransactionRecord,
  unpackTransactionRecord,
} from './transaction.record';

/** Every property a value of its own, so a value unpacked into the wrong property shows. */
function distinctRecord(): TransactionRecord {
  const record = Object.fromEntries(
    TRANSACTION_RECORD_COLUMNS.map((property, index) => [property, `value-${index}`]),
  );
  return { ...record, merchantId: 7, storeId: 12, isTest: true, proofRequested: false } as never;
}

function row(overrides: Partial<Transaction>): Transaction {
  const date = new Date('2026-11-24T10:00:00.000Z');
  return {
    ...distinctRecord(),
    expiresAt: date,
    createdAt: date,
    updatedAt: date,
    ...overrides,
  } as never;
}

describe('TransactionRecord packing (the read cache holds records as arrays)', () => {
  it('unpacks every property the record had, each with its own value', () => {
    const record = distinctRecord();
    const unpacked = unpackTransactionRecord(packTransactionRecord(record));
    expect(unpacked).toStrictEqual(record);
    expect(Object.keys(unpacked)).toEqual(TRANSACTION_RECORD_COLUMNS);
  });

  it('survives the JSON the cache stores, at about half the text of the object', () => {
    const record = distinctRecord();
    const text = JSON.stringify(packTransactionRecord(record));
    expect(unpackTransactionRecord(JSON.parse(text))).toStrictEqual(record);
    expect(text.length).toBeLessThan(JSON.stringify(record).length * 0.6);
  });

  it('keeps the sealed card number only when the row has no masked one', () => {
    expect(
      toTransactionRecord(
        row({ payCardNumberMasked: '411111******1111', payCardNumberEnc: 'sealed' }),
      ).payCardNumberEnc,
    ).toBeNull();
    expect(
      toTransactionRecord(row({ payCardNumberMasked: null, payCardNumberEnc: 'sealed' }))
        .payCardNumberEnc,
    ).toBe('sealed');
  });
});
