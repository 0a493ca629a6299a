/** `Allowed actions` → `AllowedActions`, `calendar reminder` → `CalendarReminder`; non-letters split words. */
export function pascal(words: string): string {
  return words
    .replace(/[`()]/g, " ")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => (w.toUpperCase() === w && w.length > 1 && /[A-Z]/.test(w) ? w[0] + w.slice(1).toLowerCase() : w[0]?.toUpperCase() + w.slice(1)))
    .join("");
}
