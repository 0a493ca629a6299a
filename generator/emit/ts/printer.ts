import type { Field, TypeRef } from "../../model/types.js";
import { propertyKey } from "../names.js";

/**
 * A small builder for TypeScript declarations: TypeRef → type expression, fields → interface members, JSDoc.
 * Written by hand instead of ts-morph structures because loading ts-morph brings in the TypeScript compiler
 * (about 350 ms on this machine), which alone would take the whole run past its 1 s budget; what we print is
 * only types, and prettier formats the result.
 */

export interface PrintContext {
  /** Resource name → the TS type name it is emitted as. */
  resourceName(name: string): string;
  /** The `@see` target of a spec line: the shipped spec and the anchor of the section holding the line. */
  see: (line: number) => string;
}

export const NOT_SHOWN = "Not shown in the spec: any value.";

function literal(v: string | number | boolean): string {
  return typeof v === "string" ? JSON.stringify(v) : String(v);
}

/** A type expression; `unknown` where the spec gives no type. */
export function typeExpr(t: TypeRef, ctx: PrintContext): string {
  switch (t.kind) {
    case "primitive": {
      if (t.enum && t.enum.length > 0) return t.enum.map(literal).join(" | ");
      if (t.format === "decimal") return "DecimalString";
      if (t.format === "date-time") return "DateTimeString";
      return t.type === "integer" ? "number" : t.type;
    }
    case "object": {
      const members = t.members.map((m) => memberDecl(m, ctx)).join("\n");
      const extra = t.additional ? `[key: string]: ${typeExpr(t.additional, ctx)};` : t.open ? "[key: string]: unknown;" : "";
      const body = `{\n${members}${members && extra ? "\n" : ""}${extra}\n}`;
      const obj = t.members.length === 0 && !extra ? "Record<string, unknown>" : body;
      return t.extends ? `${ctx.resourceName(t.extends)} & ${obj}` : obj;
    }
    case "array": {
      const inner = typeExpr(t.items, ctx);
      return /^[\w.]+$/.test(inner) ? `${inner}[]` : `Array<${inner}>`;
    }
    case "union":
      return t.options.map((o) => wrap(typeExpr(o, ctx))).join(" | ");
    case "ref":
      return ctx.resourceName(t.resource);
    case "null":
      return "null";
    case "unknown":
      return "unknown";
  }
}

function wrap(expr: string): string {
  return /[|&]/.test(expr) && !expr.startsWith("{") ? `(${expr})` : expr;
}

/** A field's full type: nullable, "may come as an empty object/array". */
export function fieldType(f: Field, ctx: PrintContext): string {
  const parts = [wrap(typeExpr(f.type, ctx))];
  if (f.mayBeEmptyObject) parts.push("Record<string, never>");
  if (f.mayBeEmptyArray) parts.push("[]");
  if (f.nullable && f.type.kind !== "unknown") parts.push("null");
  return parts.join(" | ");
}

/** JSDoc from the spec's own words; `@see` names the spec's section (an anchor, not a line: issue 10). */
export function doc(lines: Array<string | null | undefined | false>, ctx: PrintContext, line?: number, extra: string[] = []): string {
  const body = lines.filter((l): l is string => Boolean(l && l.trim())).map((l) => l.replace(/\*\//g, "*\\/"));
  const tags = [...extra, ...(line ? [`@see ${ctx.see(line)}`] : [])];
  const all = [...body, ...(body.length && tags.length ? [""] : []), ...tags];
  if (all.length === 0) return "";
  return `/**\n${all.map((l) => ` * ${l}`).join("\n")}\n */\n`;
}

export function memberDecl(f: Field, ctx: PrintContext, options: { optional?: boolean } = {}): string {
  const optional = options.optional ?? !f.required;
  const notes = [
    f.description ? sentence(f.description) : null,
    f.type.kind === "unknown" ? NOT_SHOWN : null,
    f.default ? `Default: ${f.default.text}.` : null,
    f.fileExtensions ? `File extensions: ${f.fileExtensions.join(", ")}.` : null,
  ];
  const tags = f.deprecated ? [`@deprecated ${f.deprecated.text}`] : [];
  return `${doc(notes, ctx, f.source.line || undefined, tags)}${propertyKey(f.name)}${optional ? "?" : ""}: ${fieldType(f, ctx)};`;
}

export function sentence(s: string): string {
  const t = s.trim();
  return /[.!?)`]$/.test(t) ? t : `${t}.`;
}
