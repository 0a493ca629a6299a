import type { Field, Model, TypeRef } from "../../generator/model/types.js";

/**
 * The one-line reading of a field that spec-source/README.md writes after each example:
 *
 *     item*: {NAME: string, PRICE: number}       required object with two members
 *     mode: "a" | "b" = "a"                      allowed values and a default
 *     view: string | null — calendar id          nullable, with its description
 *     users: array of (user ids) = (the current user)
 *
 * `*` marks required; `= x` a default (a literal in JSON form, words in parentheses); `| null` nullable; ` — words`
 * the description. Types: `integer`, `string<date-time>`, `"a" | "b"`, `integer[]`, `(noun)[]` for an array of named
 * items, `{A: t}`, `{[key]: t}` for a map, `A | B` for a union, `unknown`.
 */
export function typeSignature(t: TypeRef, model: Model | null = null): string {
  switch (t.kind) {
    case "primitive": {
      if (t.enum) return t.enum.map((v) => JSON.stringify(v)).join(" | ");
      return t.format ? `${t.type}<${t.format}>` : t.type;
    }
    case "array": {
      const items = t.items.kind === "unknown" && t.items.note ? `(${t.items.note})` : typeSignature(t.items, model);
      const whole = items.startsWith("(") || (items.startsWith("{") && items.endsWith("}")) || !items.includes(" | ");
      return whole ? `${items}[]` : `(${items})[]`;
    }
    case "union":
      return t.options.map((o) => typeSignature(o, model)).join(" | ");
    case "object": {
      const parts = t.members.map((m) => fieldSignature(m, model));
      if (t.additional) parts.push(`[${t.keyDescription ?? "key"}]: ${typeSignature(t.additional, model)}`);
      if (t.open) parts.push("...");
      return `{${parts.join(", ")}}`;
    }
    case "ref": {
      const r = model?.resources.find((x) => x.name === t.resource);
      return r ? typeSignature(r.type, model) : t.resource;
    }
    case "null":
      return "null";
    default:
      return "unknown";
  }
}

export function fieldSignature(f: Field, model: Model | null = null): string {
  let s = `${f.name}${f.required ? "*" : ""}: ${typeSignature(f.type, model)}`;
  if (f.nullable) s += " | null";
  if (f.default) s += ` = ${f.default.value !== undefined ? JSON.stringify(f.default.value) : `(${f.default.text})`}`;
  if (f.description) s += ` — ${f.description}`;
  return s;
}
