/**
 * An identifier or counter as the platform writes it: a decimal string (`"42"`), the `DecimalString` of the types
 * package. `decimal(42)`, `decimal(42n)` and `decimal("42")` give `"42"`; anything that is not a whole number
 * (`1.5`, `NaN`, `"4x"`, a number past 2^53 that has lost its digits) throws a TypeError, so that a handler never
 * answers with an id the client cannot read back.
 */
export function decimal(value: number | bigint | string): `${bigint}` {
  if (typeof value === "bigint") return `${value}`;
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) throw new TypeError(`decimal(${value}): not a whole number a decimal id can hold exactly`);
    return `${BigInt(value)}`;
  }
  if (typeof value === "string" && /^-?(?:0|[1-9]\d*)$/.test(value)) return value as `${bigint}`;
  throw new TypeError(`decimal(${JSON.stringify(value)}): not a decimal integer`);
}
