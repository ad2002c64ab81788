/** Treats an explicit JSON null like an absent field, so optional inputs have one "not given" form. */
export function withoutNulls<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], null> } {
  return Object.fromEntries(
    Object.entries(value).filter(([, field]) => field !== null && field !== undefined),
  ) as { [K in keyof T]: Exclude<T[K], null> };
}
