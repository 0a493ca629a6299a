import type { OpenAPIV3 } from "openapi-types";
import type { Field, TypeRef } from "../../model/view.js";
import { keyFormPattern, underForm } from "../../model/key-forms.js";
import { unresolvedLeft } from "../../model/map-type.js";
import { sentence, words } from "../prose.js";

/**
 * One transform per kind of TypeRef into an OpenAPI 3.0 schema. Unknown types become an empty schema with a
 * note that the spec leaves them open; nothing is invented.
 */

export type Schema = OpenAPIV3.SchemaObject | OpenAPIV3.ReferenceObject;

export const NOT_SHOWN_NOTE = "Not shown in the spec: any value is accepted.";

export function refTo(name: string): OpenAPIV3.ReferenceObject {
  return { $ref: `#/components/schemas/${name}` };
}

export function typeSchema(type: TypeRef): Schema {
  switch (type.kind) {
    case "primitive": {
      const s: OpenAPIV3.NonArraySchemaObject = { type: type.type };
      if (type.format === "date-time" || type.format === "byte" || type.format === "uri") s.format = type.format;
      if (type.format === "decimal") s.pattern = "^-?[0-9]+$";
      if (type.pattern) s.pattern = type.pattern;
      // An open set's values are the known ones, not the only ones: no `enum`, which would refuse the others.
      if (type.enum && type.openEnum) (s as Record<string, unknown>)["x-known-values"] = [...type.enum];
      else if (type.enum) s.enum = [...type.enum];
      if (type.minimum !== undefined) s.minimum = type.minimum;
      if (type.maximum !== undefined) s.maximum = type.maximum;
      return s;
    }
    case "object": {
      const s: OpenAPIV3.NonArraySchemaObject = { type: "object" };
      if (type.members.length > 0) {
        s.properties = Object.fromEntries(type.members.map((m) => [m.name, fieldSchema(m)]));
        const required = type.members.filter((m) => m.required).map((m) => m.name);
        if (required.length > 0) s.required = required;
      }
      // An object the input leaves open to other members (a filter's `>=ID`, a select-dependent shape, a bare
      // `object`) says so, as its TypeScript's `[key: string]: unknown` does: a closed check of the documents' objects
      // then tells it from one that lists all its members.
      if (type.open && !type.additional) s.additionalProperties = true;
      if (type.additional) {
        s.additionalProperties = type.additional.kind === "unknown" ? true : typeSchema(type.additional);
        if (type.keyDescription) s.description = `Keyed by ${words(type.keyDescription)}.`;
      }
      if (type.keyNames) (s as Record<string, unknown>)["x-key-names"] = type.keyNames;
      // Forms of keys with a literal part (`ufCrm...` beside crm.item.add's fields: reference/keys.ts), each with its
      // value's schema, as the `patternProperties` OpenAPI 3.0 does not have; a validator may read them as such. As
      // `patternProperties` a pattern applies to the members it matches too (`UF_BLOG_POST_DOC` and `UF_...`), and to
      // the keys of the forms it covers (`UF_CRM_...` under `UF_...`): its schema admits theirs, as the TypeScript
      // signature does.
      const keys = type.keys ?? [];
      const patterns = keys.flatMap((k) => {
        const p = keyFormPattern(k.name);
        if (p === null) return [];
        const under = underForm(k, keys, type.members);
        const others = [...under.members, ...under.forms];
        const own = fieldSchema(k);
        return [[p, others.length === 0 ? own : { anyOf: [own, ...others.map(fieldSchema)] }] as const];
      });
      if (patterns.length > 0) {
        (s as Record<string, unknown>)["x-key-patterns"] = Object.fromEntries(patterns);
        if (!type.additional && type.keyDescription) s.description = `Also keys of the form ${words(type.keyDescription)}.`;
      }
      if (type.extends) return { allOf: [refTo(type.extends), s] };
      return s;
    }
    case "array":
      return { type: "array", items: typeSchema(type.items) };
    case "union": {
      // `oneOf` says a value matches exactly one option: where options can both match one value (an option of any
      // value, integer beside number), it refuses what the union means.
      const others = type.options.filter((o) => o.kind !== "null").map(typeSchema);
      const options = others.length < type.options.length ? orNull(others) : others;
      // One type or null (`string | null`) is that type, nullable: a `oneOf` of one option says nothing more.
      if (options.length === 1) return options[0] as Schema;
      return overlapping(type.options) ? { anyOf: options } : { oneOf: options };
    }
    case "ref":
      return refTo(type.resource);
    case "null":
      // OpenAPI 3.0 allows `nullable` only beside a `type`; the enum leaves null as the one value.
      return nullOnly();
    case "unknown":
      return { description: type.note ? `${NOT_SHOWN_NOTE} (${words(type.note)})` : NOT_SHOWN_NOTE };
    case "unresolved":
      return unresolvedLeft(type);
  }
}

function describe(parts: Array<string | undefined | null>): string | undefined {
  const text = parts.filter((p): p is string => Boolean(p && p.trim())).join(" ");
  return text || undefined;
}

/** A field's schema: its type plus nullable, default, description and the "may come as empty" variants. */
export function fieldSchema(f: Field): Schema {
  let s = typeSchema(f.type);
  const isRef = "$ref" in s;
  const extra: OpenAPIV3.SchemaObject = {};
  const literalDefault =
    f.default?.value !== undefined && defaultFits(f.type, f.default.value) ? f.default.value : undefined;
  const description = describe([
    f.description ? sentence(f.description) : undefined,
    f.default && literalDefault === undefined ? `Default: ${words(f.default.text)}.` : undefined,
    !isRef && "description" in s ? s.description : undefined,
  ]);
  if (description) extra.description = description;
  // An unknown type already takes null; OpenAPI 3.0 allows `nullable` only beside a `type`, so one of several types
  // takes null as one more option.
  if (f.nullable && f.type.kind !== "unknown") {
    if ("oneOf" in s && s.oneOf && !("type" in s)) s = { ...s, oneOf: orNull(s.oneOf) };
    else {
      extra.nullable = true;
      // OpenAPI 3.0: `nullable` does not widen an `enum`; null must be one of its values too (a validator refused
      // `"type": null` for sale's basket item, whose values are `1`, `2` and `null`).
      if (!("$ref" in s) && s.enum && !s.enum.includes(null)) s = { ...s, enum: [...s.enum, null] };
    }
  }
  if (literalDefault !== undefined) extra.default = literalDefault;
  if (f.deprecated) extra.deprecated = true;
  if (f.mayBeEmptyObject || f.mayBeEmptyArray) {
    const empty: OpenAPIV3.SchemaObject = f.mayBeEmptyObject ? { type: "object", maxProperties: 0 } : { type: "array", maxItems: 0, items: {} };
    s = { anyOf: [s, empty] };
  }
  let out: Record<string, unknown>;
  if ("$ref" in s) {
    // A nullable reference: the referenced shape or null (`nullable` needs a `type` beside it in 3.0).
    const { nullable, ...rest } = extra;
    const base = nullable ? { oneOf: [s, nullOnly()] } : Object.keys(rest).length > 0 ? { allOf: [s] } : { ...s };
    out = { ...base, ...rest };
  } else out = { ...s, ...extra };
  if (f.fileExtensions) out["x-file-extensions"] = f.fileExtensions;
  if (f.keyPrefixes) out["x-key-prefixes"] = f.keyPrefixes;
  if (f.schemes) {
    out["x-schemes"] = f.schemes;
    // A value of given schemes is a URL: an absolute one, which the server checks (runtime/server/validate.ts).
    if (out.type === "string" && out.format === undefined) out.format = "uri";
  }
  if (f.knownValues) out["x-known-values"] = f.knownValues;
  if (f.selectAs) out["x-select-as"] = f.selectAs;
  if (f.feature) out["x-feature"] = f.feature;
  if (f.appliesWhen) out["x-applies-when"] = f.appliesWhen;
  return out as Schema;
}

/** The schema of null alone: OpenAPI 3.0 allows `nullable` only beside a `type`, and the enum leaves null as the one value. */
function nullOnly(): OpenAPIV3.SchemaObject {
  return { type: "string", nullable: true, enum: [null] } as OpenAPIV3.SchemaObject;
}

/**
 * A union's options and null. Null joins the first option that is a plain type (a `type` with no `enum`) as its
 * `nullable`: a separate null-only option would share its `type` with a `string` option, and `oneOf`'s options must
 * not overlap (redocly's no-illogical-composition-keywords reads the two as overlapping). Options that are all
 * references, compositions or enums take the null-only option.
 */
function orNull(options: readonly Schema[]): Schema[] {
  const plain = options.findIndex((o) => !("$ref" in o) && o.type !== undefined && o.enum === undefined);
  if (plain < 0) return [...options, nullOnly()];
  return options.map((o, i) => (i === plain ? { ...o, nullable: true } : o));
}

function defaultFits(type: TypeRef, value: string | number | boolean): boolean {
  if (type.kind !== "primitive") return false;
  if (type.type === "string") return typeof value === "string" && (!type.enum || type.enum.includes(value));
  if (type.type === "boolean") return typeof value === "boolean";
  return typeof value === "number" && (type.type === "number" || Number.isInteger(value));
}


/**
 * Whether one value may match two options of a union (see typeSchema's `union`): an option of any value, an integer
 * beside a number, or two objects one of which requires no member of its own (the reference's cases of an object,
 * one table per entity type: `{ title }` is a value of each). Objects that each require a member of their own stay
 * `oneOf` (`{ uploadUrl, fieldName }` or `{ FILE_ID }`). Groups of one object's fields are one object since
 * 2026-11-27 (reference/fields.ts objectOf), not a union.
 */
function overlapping(options: readonly TypeRef[]): boolean {
  if (options.some((o) => o.kind === "unknown")) return true;
  const objects = options.filter((o): o is Extract<TypeRef, { kind: "object" }> => o.kind === "object");
  const own = (o: (typeof objects)[number]) => o.members.some((m) => m.required && !objects.some((p) => p !== o && p.members.some((q) => q.name === m.name)));
  if (objects.length > 1 && !objects.every(own)) return true;
  const plain = (t: string) => options.some((o) => o.kind === "primitive" && o.type === t && !o.enum);
  // Two options of one JSON type (an integer is a number) that can share a value: one takes any value of the type (a
  // date-time string beside the empty string `""` a page's shape allows, which no format tells apart), or their
  // enumerations meet. Disjoint enumerations (`Y`/`N` beside `1`/`0`) stay `oneOf`.
  const json = (t: string) => (t === "integer" ? "number" : t);
  const prims = options.filter((o): o is Extract<TypeRef, { kind: "primitive" }> => o.kind === "primitive");
  for (let i = 0; i < prims.length; i++) {
    for (let j = i + 1; j < prims.length; j++) {
      const a = prims[i] as (typeof prims)[number];
      const b = prims[j] as (typeof prims)[number];
      if (json(a.type) !== json(b.type)) continue;
      if (!a.enum || !b.enum) return true;
      const other = new Set(b.enum);
      if (a.enum.some((v) => other.has(v))) return true;
    }
  }
  return plain("integer") && plain("number");
}

