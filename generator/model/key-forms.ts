/**
 * The forms of keys an object takes beyond its members (`keyNames`: `UF_...`, `ufCrm...`, `chat<chatId>`,
 * `upload{id}`, `<userId>`), as the parts they are made of: literal text, and `null` for any text (a placeholder, or
 * the "and so on" of `...`, `…`, `*`). The printers and the checks of the generated documents read a form so; a form
 * whose literal parts hold anything but name characters is any key (null), never text to splice into code.
 */
export function keyFormParts(form: string): Array<string | null> | null {
  const parts: Array<string | null> = [];
  const re = /<[^<>]*>|\{[^{}]*\}|\.\.\.|…|\*/g;
  let at = 0;
  for (const m of form.matchAll(re)) {
    if (m.index > at) parts.push(form.slice(at, m.index));
    if (parts[parts.length - 1] !== null) parts.push(null);
    at = m.index + m[0].length;
  }
  if (at < form.length) parts.push(form.slice(at));
  if (!parts.includes(null)) return null;
  return parts.every((p) => p === null || /^[A-Za-z0-9_.:-]+$/.test(p)) ? parts : null;
}

/** A regular expression source that matches the keys of the form; null where the form is any key. */
export function keyFormPattern(form: string): string | null {
  const parts = keyFormParts(form);
  if (!parts || parts.every((p) => p === null)) return null;
  return `^${parts.map((p) => (p === null ? ".*" : p.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&"))).join("")}$`;
}

/** Whether a member's name is a key of the form (a form that is any key takes every name). */
export function keyFormMatches(form: string, name: string): boolean {
  const pattern = keyFormPattern(form);
  return pattern === null || new RegExp(pattern).test(name);
}

/**
 * What else a form's keys may hold: the members whose names are keys of the form (`parentId` under `parentId...`),
 * and the other forms it covers (`UF_CRM_...` under `UF_...`). A printer's signature or pattern for the form admits
 * their types too (TS2411/TS2413; `patternProperties` apply to every key they match).
 */
export function underForm<F extends { name: string }>(form: F, forms: readonly F[], members: readonly F[]): { members: F[]; forms: F[] } {
  return {
    members: members.filter((m) => keyFormMatches(form.name, m.name)),
    forms: forms.filter((o) => o !== form && coveredBy(o.name, form.name)),
  };
}

/**
 * Whether every key of the form `inner` is a key of the form `outer` (`UF_CRM_...` under `UF_...`): both a literal
 * prefix then any text, the outer prefix starting the inner one. Other shapes are not compared (not covered).
 */
export function coveredBy(inner: string, outer: string): boolean {
  const a = keyFormParts(inner);
  const b = keyFormParts(outer);
  if (!a || !b || b.length !== 2 || b[1] !== null || typeof b[0] !== "string" || typeof a[0] !== "string") return false;
  return a[0].startsWith(b[0]);
}
