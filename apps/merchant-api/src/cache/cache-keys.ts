/**
 * Every key of the read cache. With Redis they sit under `<REDIS_KEY_PREFIX>cache::`.
 *
 * A transaction is cached under its id alone, because the core's change notification carries
 * only the id; readers check the cached record's merchant and type before using it. `v2`: the
 * record packed as an array (transaction.record.ts), not as an object.
 * A merchant's balance pages hang off a version key: one notification drops the version, and
 * every page cached under the old one becomes unreachable at once. A page key also names the
 * shape of what it holds (`v2`: records as answered), so instances of two releases sharing one
 * Redis never read each other's pages.
 */
export const CacheKeys = {
  transaction: (transactionId: string): string => `txn:v2:${transactionId.toLowerCase()}`,
  balanceVersion: (merchantId: number | string): string => `balance-version:${merchantId}`,
  balancePage: (merchantId: number, version: string, page: number, limit: number): string =>
    `balance:v2:${merchantId}:${version}:${page}:${limit}`,
};
