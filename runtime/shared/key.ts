import type { KeyRule } from "./data.js";

/** Whether an `Idempotency-Key` satisfies the spec's rule (its length range and character range, from the data). */
export function validKey(key: string, rule: KeyRule): boolean {
  if (key.length < rule.minLength || key.length > rule.maxLength) return false;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c < rule.charCodes[0] || c > rule.charCodes[1]) return false;
  }
  return true;
}
