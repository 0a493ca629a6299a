import type { Field, Method, Model, TypeRef } from "../../generator/model/types.js";
import { objectDetails } from "../../generator/read/object-details.js";

/**
 * Prints the facts of parameters in each accepted surface of the dialect (spec-source/README.md#the-grammar-of-a-field),
 * for the metamorphic and property tests: the same facts, written another way, must read back to the same model.
 */

export type ParamSurface = "bullets" | "sentences" | "one-bullet" | "table";
export type MemberSurface = "colon" | "with" | "paren" | "nested" | "table";

export interface Style {
  params: ParamSurface;
  members: MemberSurface;
  /** `Scope \`x\`` or `Scope: \`x\``. */
  scopeColon: boolean;
  /** Allowed values in the type phrase / Type column, or at the start of the meaning / Meaning column. */
  valuesInMeaning: boolean;
  /** Which synonym of each table header (wraps around the lists). */
  headers: number;
}

export const HEADER_SETS = [
  ["Parameter", "Type", "Required", "Meaning"],
  ["Name", "Data type", "Mandatory", "Description"],
  ["Field", "Type", "Required?", "Meaning / allowed values"],
  ["Key", "Value type", "Req.", "Notes"],
  ["Property", "Type", "Required", "Allowed values"],
] as const;
export const MEMBER_HEADER_SETS = [
  ["Member", "Type", "Meaning / allowed values"],
  ["Field", "Data type", "Description"],
  ["Name", "Type", "Meaning"],
  ["Attribute", "Type", "Details"],
] as const;

const PLURAL: Record<string, string> = { integer: "integers", number: "numbers", string: "strings", boolean: "booleans" };

function literal(v: string | number | boolean): string {
  return `\`${String(v)}\``;
}

/** "`a`, `b` or `c`" with "(default)" after the default value when the description does not say it. */
function valueList(values: Array<string | number | boolean>, def: Field["default"], markDefault: boolean): string {
  const items = values.map((v) => `${literal(v)}${markDefault && def?.value === v ? " (default)" : ""}`);
  if (items.length <= 2) return items.join(" or ");
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}

/** The type phrase of a type, without members; null for `unknown` (the spec gave no type). */
export function typePhrase(t: TypeRef, model: Model | null): string | null {
  switch (t.kind) {
    case "primitive":
      if (t.format === "date-time") return "ISO 8601";
      if (t.format === "byte") return "Base64";
      if (t.format === "uri") return "string URL";
      return t.type;
    case "array": {
      const it = t.items;
      if (it.kind === "primitive" && !it.format && !it.enum) return `array of ${PLURAL[it.type]}`;
      if (it.kind === "unknown") return it.note ? `array of ${it.note}` : "array";
      return "array";
    }
    case "union":
      return t.options.map((o) => typePhrase(o, model) ?? "").join(" or ");
    case "object":
      if (t.additional && t.keyDescription && t.additional.kind === "primitive" && t.members.length === 0 && !t.additional.enum) {
        return `object of ${t.keyDescription} to ${t.additional.type}`;
      }
      return "object";
    case "ref": {
      const r = model?.resources.find((x) => x.name === t.resource);
      return r ? typePhrase(r.type, model) : "object";
    }
    default:
      return null;
  }
}

/** An object type's members, refs resolved; empty when the description already yields the shape. */
function explicitMembers(t: TypeRef, description: string, model: Model | null): Field[] | null {
  const obj = t.kind === "ref" ? model?.resources.find((x) => x.name === t.resource)?.type : t;
  if (!obj || obj.kind !== "object") return null;
  const derived = objectDetails({ kind: "object", members: [] }, description);
  if (derived.kind === "object" && (derived.members.length > 0 || derived.additional)) return null;
  if (obj.additional) return null;
  return obj.members.length > 0 ? obj.members : null;
}

/** Wraps a description in a parenthesis where its `;`, `,` or sentences would end an inline member list. */
function memberDescription(d: string): string {
  return d ? ` (${d})` : "";
}

interface Printed {
  /** The clause: "`name`* type `a` or `b`, description". */
  clause: string;
  /** Nested bullets or a member table that must follow the clause's own line. */
  after: Array<{ kind: "nested"; lines: string[] } | { kind: "table"; lines: string[] }>;
}

/** The values of a primitive type, and whether the description writes its default already. */
function valuesOf(f: Field): { values: Array<string | number | boolean>; markDefault: boolean } | null {
  const t = f.type;
  if (t.kind !== "primitive" || !t.enum) return null;
  const saysDefault = /\bdefault\b/i.test(f.description);
  return { values: t.enum, markDefault: !saysDefault && f.default?.value !== undefined };
}

/** One field as a clause of an inline surface; `depth` > 0 inside a member list. */
export function printClause(f: Field, style: Style, model: Model | null, depth = 0): Printed {
  const name = `\`${f.name}\`${f.required ? "*" : ""}`;
  let phrase = typePhrase(f.type, model);
  const v = valuesOf(f);
  let description = f.description;
  if (v && phrase) {
    const list = valueList(v.values, f.default, v.markDefault);
    if (style.valuesInMeaning && depth === 0) description = [list, description].filter(Boolean).join(", ");
    else phrase = `${phrase} ${list}`;
  }
  if (phrase && f.nullable) phrase = `${phrase} or null`;
  const members = explicitMembers(f.type, f.description, model);
  const after: Printed["after"] = [];
  let memberText = "";
  if (members && phrase) {
    // A member list runs to the end of its clause, so a described object lists its members in a parenthesis.
    const surface = description || (depth > 0 && (style.members === "colon" || style.members === "with")) ? "paren" : style.members;
    if (surface === "nested" && depth === 0) {
      after.push({ kind: "nested", lines: nestedLines(members, style, model, 1) });
      memberText = ":";
    } else if (surface === "table" && depth === 0) {
      after.push({ kind: "table", lines: memberTable(members, style, model) });
      memberText = ":";
    } else {
      const list = members.map((m) => printClause(m, style, model, depth + 1).clause).join(", ");
      memberText = surface === "colon" ? `: ${list}` : surface === "with" ? ` with ${list}` : ` (members: ${list})`;
    }
  }
  if (!phrase) {
    return { clause: description ? `${name} (${description})` : name, after };
  }
  if (memberText && !memberText.startsWith(" (")) return { clause: `${name} ${phrase}${memberText}`, after };
  const tail = depth > 0 ? memberDescription(description) : description ? `, ${description}` : "";
  return { clause: `${name} ${phrase}${memberText}${tail}`, after };
}

function nestedLines(members: Field[], style: Style, model: Model | null, level: number): string[] {
  const pad = "  ".repeat(level);
  const out: string[] = [];
  for (const m of members) {
    const inner = explicitMembers(m.type, m.description, model);
    const p = printClause(m, { ...style, members: inner ? "paren" : style.members }, model, 1);
    out.push(`${pad}- ${p.clause}`);
  }
  return out;
}

function escapeCell(s: string): string {
  return s.replace(/\|/g, "\\|");
}

function memberTable(members: Field[], style: Style, model: Model | null): string[] {
  const h = MEMBER_HEADER_SETS[style.headers % MEMBER_HEADER_SETS.length] ?? MEMBER_HEADER_SETS[0];
  const lines = [`| ${h.join(" | ")} |`, `|---|---|---|`];
  for (const m of members) {
    const cells = rowCells(m, style, model);
    lines.push(`| ${m.required ? `\`${m.name}\`*` : m.name} | ${cells.type} | ${cells.meaning} |`);
  }
  return lines;
}

/** Type and Meaning cells of a table row. */
function rowCells(f: Field, style: Style, model: Model | null): { type: string; meaning: string } {
  let phrase = typePhrase(f.type, model) ?? "";
  const v = valuesOf(f);
  let meaning = f.description;
  if (v && phrase) {
    const list = valueList(v.values, f.default, v.markDefault);
    if (style.valuesInMeaning) meaning = [list, meaning].filter(Boolean).join(", ");
    else phrase = `${phrase} ${list}`;
  }
  if (phrase && f.nullable) phrase = `${phrase} or null`;
  const members = explicitMembers(f.type, f.description, model);
  if (members && phrase) {
    const list = members.map((m) => printClause(m, style, model, 1).clause).join(", ");
    if (meaning) phrase = `${phrase} (members: ${list})`;
    else meaning = `members: ${list}`;
  }
  return { type: escapeCell(phrase), meaning: escapeCell(meaning) };
}

/** The parameters of a method in one surface, as Markdown lines. */
export function printParams(params: Field[], style: Style, model: Model | null): string[] {
  if (params.length === 0) return [];
  if (style.params === "table") {
    const h = HEADER_SETS[style.headers % HEADER_SETS.length] ?? HEADER_SETS[0];
    const lines = ["", `| ${h.join(" | ")} |`, "|---|---|---|---|"];
    for (const p of params) {
      const cells = rowCells(p, style, model);
      lines.push(`| \`${p.name}\` | ${cells.type} | ${p.required ? "yes" : ""} | ${cells.meaning} |`);
    }
    return [...lines, ""];
  }
  const printed = params.map((p) => printClause(p, { ...style, members: style.params === "bullets" ? style.members : nonBlock(style.members) }, model));
  if (style.params === "bullets") {
    const lines: string[] = [];
    for (const p of printed) {
      lines.push(`- ${p.clause}.`.replace(/:\.$/, ":"));
      for (const a of p.after) {
        if (a.kind === "nested") lines.push(...a.lines.map((l) => `${l}`));
        else lines.push("", ...a.lines, "");
      }
    }
    return ["", ...lines, ""];
  }
  const text = printed.map((p) => `${p.clause}.`).join(" ");
  return style.params === "one-bullet" ? ["", `- ${text}`, ""] : ["", text, ""];
}

/** Inside one paragraph or bullet, members cannot be bullets or a table. */
function nonBlock(m: MemberSurface): MemberSurface {
  return m === "nested" || m === "table" ? "paren" : m;
}

export function scopeSentence(m: Method, style: Style): string {
  if (!m.scopes) return "";
  const note = m.scopeNote ? ` (${m.scopeNote})` : "";
  if (m.scopes.length === 1 && m.scopes[0] === "base") return `Scope: base${note}.`;
  const word = m.scopes.length > 1 ? "Scopes" : "Scope";
  return `${word}${style.scopeColon ? ":" : ""} ${m.scopes.map((s) => `\`${s}\``).join(", ")}${note}.`;
}
