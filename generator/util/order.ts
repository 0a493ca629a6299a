/** A plain ordinal compare of strings: the same order on every machine and locale. */
export const ordinal = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
