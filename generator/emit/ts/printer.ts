import type { Field, Source, TypeRef } from "../../model/view.js";
import { propertyKey, stringLiteral } from "../names.js";
import { blockCommentText } from "../../util/comment.js";
import { type TsMember, type TsType, keyword, reference, union } from "./layout.js";
import { keyFormParts, underForm } from "../../model/key-forms.js";
import { unresolvedLeft } from "../../model/map-type.js";
import { sentence, words } from "../prose.js";

/**
 * A small builder for TypeScript declarations: TypeRef → type expression, fields → interface members, JSDoc.
 * Written by hand instead of ts-morph structures because loading ts-morph brings in the TypeScript compiler
 * (about 350 ms on this machine), which alone would take the whole run past its 1 s budget; what we print is
 * only types, as nodes that `layout.ts` prints in prettier's layout.
 */

export interface PrintContext {
  /** Resource name → the TS type name it is emitted as. */
  resourceName(name: string): string;
  /** The `@see` target of a position: the shipped spec and its section's anchor, or the reference page's public URL. */
  see: (at: Source) => string | null;
  /**
   * Whether a position lies on a page of the platform's reference (model/sections.ts `onReferencePage`): in a model
   * of both inputs, a fact read from the other input than its node's says so (D29). Absent: one input.
   */
  fromReference?: (at: Source) => boolean;
}

/**
 * A fact of a node read from the other input than the node (decisions.md D24, D29): its words, and its `@see`.
 * Nothing when the model holds one input, or the fact was read where the node was.
 */
export function readElsewhere(what: string, node: Source, fact: Source | undefined, ctx: PrintContext): { note: string | null; tags: string[] } {
  const from = ctx.fromReference;
  if (!fact || !from || from(fact) === from(node)) return { note: null, tags: [] };
  const target = ctx.see(fact);
  return { note: `${what} read from ${from(fact) ? "the platform's reference" : "the spec"}.`, tags: target ? [`@see ${target}`] : [] };
}

export const NOT_SHOWN = "Not shown in the spec: any value.";

function literal(v: string | number | boolean): string {
  return typeof v === "string" ? stringLiteral(v) : String(v);
}

/** A type node; `unknown` where the spec gives no type. */
export function typeNode(t: TypeRef, ctx: PrintContext): TsType {
  switch (t.kind) {
    case "primitive": {
      // An open set keeps the editor's completion of the known values and takes any other string.
      if (t.enum && t.enum.length > 0 && t.openEnum) return union([...t.enum.map((v) => keyword(literal(v))), keyword("(string & {})")]);
      if (t.enum && t.enum.length > 0) return union(t.enum.map((v) => keyword(literal(v))));
      if (t.format === "decimal") return reference("DecimalString");
      if (t.format === "date-time") return reference("DateTimeString");
      return keyword(t.type === "integer" ? "number" : t.type);
    }
    case "object": {
      const members = t.members.map((m) => memberNode(m, ctx));
      const forms = t.keys ? keySignatures(t.keys, t.members, ctx) : null;
      if (forms) members.push(...forms.signatures);
      let extra = t.additional ? typeNode(t.additional, ctx) : t.open ? keyword("unknown") : null;
      // A `[key: string]` beside template literal signatures admits their types (else TS2413).
      if (extra && forms && forms.signatures.length > 0) extra = union([extra, ...forms.signatures.map((m) => m.type)]);
      // An index signature admits every named member's type (else TS2411): a map with keys of its own (crm.address.fields,
      // each field the map's value) takes the type of each member that is not the map's, and `undefined` (an optional
      // member) and `null` (a nullable one).
      if (t.additional && extra && t.members.length > 0) {
        const value = JSON.stringify(t.additional);
        const others = t.members.filter((m) => m.type !== t.additional && JSON.stringify(m.type) !== value).map((m) => typeNode(m.type, ctx));
        const empty = [...(t.members.some((m) => !m.required) ? [keyword("undefined")] : []), ...(t.members.some((m) => m.nullable) ? [keyword("null")] : [])];
        extra = union([extra, ...others, ...empty]);
      }
      if (extra) members.push({ key: "[key: string]", type: extra });
      const obj: TsType = members.length === 0 ? reference("Record", [keyword("string"), keyword("unknown")]) : { kind: "object", members, expanded: true };
      return t.extends ? { kind: "intersection", types: [reference(ctx.resourceName(t.extends)), obj] } : obj;
    }
    case "array": {
      const inner = typeNode(t.items, ctx);
      return isSimpleName(inner) ? { kind: "array", element: inner } : reference("Array", [inner]);
    }
    case "union":
      return union(t.options.map((o) => typeNode(o, ctx)));
    case "ref":
      return reference(ctx.resourceName(t.resource));
    case "null":
      return keyword("null");
    case "unknown":
      return keyword("unknown");
    case "unresolved":
      return unresolvedLeft(t);
  }
}

/**
 * The index signatures of an object's key forms (model `keys`, reference/keys.ts): `[key: \`UF_${string}\`]` for
 * `UF_...`, each with its row's words and value type. A member whose name is a key of the form (`parentId` and
 * `parentId...`) adds its type, as a `[key: string]` signature's members do (else TS2411). A form that is any key
 * (`<userId>`, or a form whose literal parts are not plain name characters) has none: the model's `additional` holds
 * its type, which the `[key: string]` says.
 */
function keySignatures(keys: readonly Field[], named: readonly Field[], ctx: PrintContext): { signatures: TsMember[] } {
  const signatures: TsMember[] = [];
  for (const k of keys) {
    const parts = keyFormParts(k.name);
    if (!parts || parts.every((p) => p === null)) continue;
    const template = `\`${parts.map((p) => (p === null ? "${string}" : p)).join("")}\``;
    // A form this one covers (`UF_CRM_...` under `UF_...`) has keys of both: this signature admits its type (TS2413).
    const { members: matching, forms: covered } = underForm(k, keys, named);
    const type = union([
      fieldTypeNode(k, ctx),
      ...covered.map((o) => fieldTypeNode(o, ctx)),
      ...matching.map((m) => fieldTypeNode(m, ctx)),
      ...(matching.some((m) => !m.required) ? [keyword("undefined")] : []),
    ]);
    const comment = doc([`Keys of the form \`${k.name}\`${k.description ? `: ${sentence(k.description)}` : "."}`], ctx, k.source, []);
    signatures.push({ ...(comment ? { comment } : {}), key: `[key: ${template}]`, type });
  }
  return { signatures };
}

/** `Name[]` for a keyword or a plain name (`string[]`, `Task[]`); `Array<…>` for anything longer. */
function isSimpleName(t: TsType): boolean {
  return (t.kind === "keyword" && /^\w+$/.test(t.text)) || (t.kind === "reference" && t.args.length === 0);
}

/** A field's full type: nullable, "may come as an empty object/array". */
export function fieldTypeNode(f: Field, ctx: PrintContext): TsType {
  const parts = [typeNode(f.type, ctx)];
  if (f.mayBeEmptyObject) parts.push(reference("Record", [keyword("string"), keyword("never")]));
  if (f.mayBeEmptyArray) parts.push(keyword("[]"));
  if (f.nullable && f.type.kind !== "unknown") parts.push(keyword("null"));
  return union(parts);
}

/** JSDoc from the spec's own words; `@see` names the spec's section (an anchor, not a line: issue 10). */
export function doc(lines: Array<string | null | undefined | false>, ctx: PrintContext, at?: Source, extra: string[] = []): string {
  // A text of several lines keeps its line breaks, each line behind its own ` * `.
  const body = lines
    .filter((l): l is string => Boolean(l && l.trim()))
    .flatMap((l) => blockCommentText(l).split(/\r\n|[\r\n\u2028\u2029]/))
    .map((l) => l.trimEnd());
  const target = at?.line ? ctx.see(at) : null;
  // The node's own `@see` comes first; a fact's read from elsewhere (`readElsewhere`) after it.
  const seeAlso = extra.filter((t) => t.startsWith("@see "));
  // A tag is one line of comment text too: what input reaches it (a page's URL) cannot close the comment.
  const tags = [...extra.filter((t) => !t.startsWith("@see ")), ...(target ? [`@see ${target}`] : []), ...seeAlso].map((t) => blockCommentText(t, { oneLine: true }));
  const all = [...body, ...(body.length && tags.length ? [""] : []), ...tags];
  if (all.length === 0) return "";
  return `/**\n${all.map((l) => (l ? ` * ${l}` : " *")).join("\n")}\n */\n`;
}

export function memberNode(f: Field, ctx: PrintContext, options: { optional?: boolean } = {}): TsMember {
  const notes = [
    f.description ? sentence(f.description) : null,
    f.type.kind === "unknown" ? NOT_SHOWN : null,
    f.default ? `Default: ${words(f.default.text)}.` : null,
    f.fileExtensions ? `File extensions: ${f.fileExtensions.join(", ")}.` : null,
  ];
  const typeFrom = readElsewhere("Type", f.source, f.typeSource, ctx);
  notes.push(typeFrom.note);
  const tags = [...(f.deprecated ? [`@deprecated ${words(f.deprecated.text)}`] : []), ...typeFrom.tags];
  const comment = doc(notes, ctx, f.source, tags);
  return { ...(comment ? { comment } : {}), key: propertyKey(f.name), optional: options.optional ?? !f.required, type: fieldTypeNode(f, ctx) };
}

export { sentence } from "../prose.js";
