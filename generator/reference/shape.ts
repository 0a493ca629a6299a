import { createRequire } from "node:module";
import type { ts as TsNamespace } from "ts-morph";
import { type Diagnostic, diagnostic } from "../diagnostics/catalogue.js";
import type { Field, Method, Resource, Source, TypeRef } from "../model/types.js";
import type { FragmentCache } from "../source/index.js";
import { sha256 } from "../util/hash.js";
import type { YfmBlock } from "../yfm/blocks.js";

/**
 * The result's TypeScript shape: the page's second statement of what a method answers
 * (spec-source/README-reference.md#the-results-typescript-shape).
 *
 * 1,310 method pages hold a "JS (TS)" tab that calls the method through the platform's SDK and declares what the call
 * returns in `result`: `type ProductGetResult = { product: { previewText: string | null … } }` and
 * `$b24.actions.v2.call.make<ProductGetResult>({ method: 'catalog.product.get', … })`. The type argument of
 * `call.make` is `result`'s type (the SDK's `response.getData().result`). Where it says that a value may be what the
 * page's table does not allow (null, a number written as a string, an empty array for an object, a member the table
 * does not list), the two statements of one page disagree: the result takes either (the relaxed reading, as
 * decisions.md D8 takes for required), and a warning lists each point with the shape's position. A result the table
 * does not type is typed from the shape. Values the shape narrows are left as the table says. A member whose type is
 * one of the catalogue's structures (`catalog_product`, shared by every method that names it) is not widened from one
 * page: what every page's shape says of the structure widens it once (withSharedShapes), one warning per structure.
 *
 * The declarations are read with TypeScript's own parser (ts-morph's bundled `ts`), loaded on the first page that
 * has a shape (about 200 ms once): a page is one source file, parsed whole, with positions.
 */

type Ts = typeof TsNamespace;
const require = createRequire(import.meta.url);
let loaded: Ts | undefined;
const tsApi = (): Ts => (loaded ??= (require("ts-morph") as { ts: Ts }).ts);

/** A value as the shape declares it; `at` is the position in the page of the type (or of the member) that says it. */
export type Shape =
  | { kind: "string"; date?: boolean; literal?: string; at: Source }
  | { kind: "number"; literal?: number; at: Source }
  | { kind: "boolean"; literal?: boolean; at: Source }
  | { kind: "null"; at: Source }
  | { kind: "unknown"; at: Source }
  | { kind: "array"; items: Shape; at: Source }
  | { kind: "object"; members: ShapeMember[]; additional?: Shape; at: Source }
  | { kind: "union"; options: Shape[]; at: Source };

export interface ShapeMember {
  name: string;
  optional: boolean;
  type: Shape;
  at: Source;
}

/** The types one block's shape may expand to (the reference's largest is under 200). */
const SHAPE_BUDGET = 10_000;

const SHAPE_LANGS = new Set(["ts", "typescript", "js", "javascript"]);
/** The SDK's own names a shape may use, as what they are on the wire. */
const SDK_TYPES: Record<string, (at: Source) => Shape> = {
  ISODate: (at) => ({ kind: "string", date: true, at }),
};

/**
 * The shapes a page declares for `method`'s result: the type argument of each `call.make<T>(…)` whose `method` is the
 * method's name, resolved against the block's own declarations. Pages without such a call give none. A shape cut at
 * the budget is said (`unplaced`: the rest of it).
 */
export function resultShapes(blocks: readonly YfmBlock[], file: string, method: string, diagnostics: Diagnostic[], memo?: ShapeMemo): Shape[] {
  const shapes: Shape[] = [];
  const over: Source[] = [];
  for (const b of blocks) {
    // A method's name is matched in any case, as the platform takes it (`sale.paymentItemShipment.get`, the title's
    // `sale.paymentitemshipment.get`).
    if (b.kind !== "code" || b.file !== file || !SHAPE_LANGS.has(b.lang) || !b.text.includes("call.make<") || !b.text.toLowerCase().includes(method.toLowerCase())) continue;
    const read = memo ? remembered(b, method, memo) : shapesOfBlock(b, method);
    shapes.push(...read.shapes);
    over.push(...read.over);
  }
  for (const at of over) diagnostics.push(diagnostic("unplaced", { ...at, endLine: at.line, endColumn: at.column + 1 }, { what: `the rest of the TypeScript shape of ${method}'s result, past ${SHAPE_BUDGET} types (read as any value from here)` }));
  return shapes;
}

/**
 * Earlier runs' readings of code blocks (the CLI's cache, which the front end lends): a page whose words changed is
 * read anew, and its code, as it was (wherever on the page it now stands), needs no TypeScript parser (about 0.3 s to
 * load). An entry keeps its positions as lines after the block's fence, placed again at the block's line when found.
 * `keys` collects the entries this run used, so that the front end keeps them beside a page reading it takes from the
 * cache.
 */
export interface ShapeMemo {
  cache: FragmentCache;
  keys: string[];
}

/** A block's shapes from the memo when an earlier run read the same block for the same method, else read now. */
function remembered(b: Extract<YfmBlock, { kind: "code" }>, method: string, memo: ShapeMemo): BlockShapes {
  const { cache, keys } = memo;
  const key = sha256(`shape\0${cache.salt}\0${method}\0${b.file}\0${b.column}\0${b.columns?.join(",") ?? ""}\0${b.text}`);
  keys.push(key);
  const earlier = cache.next.get(key) ?? cache.entries.get(key);
  if (isBlockShapes(earlier)) {
    cache.next.set(key, earlier);
    // A copy (the model takes the shapes' positions into its nodes, and the entry is kept for the next run), at the
    // block's line.
    return movedBy(earlier, b.line);
  }
  const read = shapesOfBlock(b, method);
  cache.next.set(key, movedBy(read, -b.line));
  return read;
}

/**
 * A copy of a block's shapes with every position's line moved by `lines`. A position may stand in two places (a
 * tuple's array and its items, a shape cut at the budget and its `over` entry); the copy keeps that sharing, as the
 * cache's serialisation does, so each object is moved once.
 */
function movedBy(read: BlockShapes, lines: number): BlockShapes {
  const copy = structuredClone(read);
  const seen = new Set<object>();
  const walk = (x: unknown): void => {
    if (x === null || typeof x !== "object" || seen.has(x)) return;
    seen.add(x);
    if (Array.isArray(x)) for (const v of x) walk(v);
    else {
      const o = x as Record<string, unknown>;
      if (typeof o.line === "number" && typeof o.column === "number" && typeof o.file === "string") o.line += lines;
      else for (const v of Object.values(o)) walk(v);
    }
  };
  walk(copy);
  return copy;
}

function isBlockShapes(x: unknown): x is BlockShapes {
  return typeof x === "object" && x !== null && Array.isArray((x as BlockShapes).shapes) && Array.isArray((x as BlockShapes).over);
}

/** What one block says: its shapes of the method's result, and where a shape was cut at the budget. */
interface BlockShapes {
  shapes: Shape[];
  over: Source[];
}

function shapesOfBlock(b: Extract<YfmBlock, { kind: "code" }>, method: string): BlockShapes {
  const over: Source[] = [];
  const ts = tsApi();
  const sf = ts.createSourceFile("shape.ts", b.text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  // A line of the block is the page's line after the fence; its columns are the fence's indentation further right
  // (yfm/blocks.ts strips that indentation from the body), or where `columns` says for a line indented less.
  // Lines are counted at `\n` only, as the page's are (TypeScript also breaks lines at U+2028 and U+2029).
  const starts = [0];
  for (let i = b.text.indexOf("\n"); i >= 0; i = b.text.indexOf("\n", i + 1)) starts.push(i + 1);
  const at = (node: TsNamespace.Node): Source => {
    const pos = node.getStart(sf);
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= pos) lo = mid;
      else hi = mid - 1;
    }
    return { file: b.file, line: b.line + 1 + lo, column: (b.columns?.[lo] ?? b.column) + pos - (starts[lo] as number) };
  };
  const declared = new Map<string, TsNamespace.TypeNode | TsNamespace.InterfaceDeclaration>();
  const calls: TsNamespace.TypeNode[] = [];
  const visit = (node: TsNamespace.Node): void => {
    if (ts.isTypeAliasDeclaration(node) && !node.typeParameters) declared.set(node.name.text, node.type);
    else if (ts.isInterfaceDeclaration(node) && !node.typeParameters) declared.set(node.name.text, node);
    else if (ts.isCallExpression(node) && node.typeArguments?.length === 1 && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === "make") {
      const owner = node.expression.expression;
      const arg = node.arguments[0];
      if (ts.isPropertyAccessExpression(owner) && owner.name.text === "call" && arg && ts.isObjectLiteralExpression(arg) && calledMethod(ts, arg)?.toLowerCase() === method.toLowerCase()) calls.push(node.typeArguments[0] as TsNamespace.TypeNode);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  // Each name is resolved once per use; a name met again inside itself is unknown (a recursive shape is no tree).
  const resolving = new Set<string>();
  // A name used twice is expanded twice, so aliases that each use the one before twice double the shape at each step:
  // past SHAPE_BUDGET types the rest of the shape is any value, and the reading says so.
  let left = SHAPE_BUDGET;
  const read = (node: TsNamespace.TypeNode): Shape => {
    const here = at(node);
    if (--left < 0) {
      if (left === -1) over.push(here);
      return { kind: "unknown", at: here };
    }
    if (ts.isParenthesizedTypeNode(node)) return read(node.type);
    switch (node.kind) {
      case ts.SyntaxKind.StringKeyword:
        return { kind: "string", at: here };
      case ts.SyntaxKind.NumberKeyword:
        return { kind: "number", at: here };
      case ts.SyntaxKind.BooleanKeyword:
        return { kind: "boolean", at: here };
      case ts.SyntaxKind.NullKeyword:
        return { kind: "null", at: here };
      default:
        break;
    }
    if (ts.isLiteralTypeNode(node)) {
      const l = node.literal;
      if (l.kind === ts.SyntaxKind.NullKeyword) return { kind: "null", at: here };
      if (ts.isStringLiteral(l)) return { kind: "string", literal: l.text, at: here };
      if (ts.isNumericLiteral(l)) return { kind: "number", literal: Number(l.text), at: here };
      if (l.kind === ts.SyntaxKind.TrueKeyword || l.kind === ts.SyntaxKind.FalseKeyword) return { kind: "boolean", literal: l.kind === ts.SyntaxKind.TrueKeyword, at: here };
      if (ts.isPrefixUnaryExpression(l) && ts.isNumericLiteral(l.operand)) return { kind: "number", literal: -Number(l.operand.text), at: here };
      return { kind: "unknown", at: here };
    }
    if (ts.isUnionTypeNode(node)) return { kind: "union", options: node.types.map(read), at: here };
    if (ts.isArrayTypeNode(node)) return { kind: "array", items: read(node.elementType), at: here };
    if (ts.isTupleTypeNode(node)) {
      const items = node.elements.map((e) => read(ts.isNamedTupleMember(e) ? e.type : e));
      return { kind: "array", items: items.length === 1 ? (items[0] as Shape) : items.length === 0 ? { kind: "unknown", at: here } : { kind: "union", options: items, at: here }, at: here };
    }
    if (ts.isTypeLiteralNode(node)) return objectOf(node.members, here);
    if (ts.isTypeReferenceNode(node)) {
      const name = ts.isIdentifier(node.typeName) ? node.typeName.text : "";
      const args = node.typeArguments ?? [];
      if ((name === "Array" || name === "ReadonlyArray") && args.length === 1) return { kind: "array", items: read(args[0] as TsNamespace.TypeNode), at: here };
      if (name === "Record" && args.length === 2) return { kind: "object", members: [], additional: read(args[1] as TsNamespace.TypeNode), at: here };
      if (name === "Partial" && args.length === 1) {
        const inner = read(args[0] as TsNamespace.TypeNode);
        return inner.kind === "object" ? { ...inner, members: inner.members.map((m) => ({ ...m, optional: true })) } : inner;
      }
      const sdk = SDK_TYPES[name];
      if (sdk && args.length === 0) return sdk(here);
      const target = declared.get(name);
      if (!target || args.length > 0 || resolving.has(name)) return { kind: "unknown", at: here };
      resolving.add(name);
      try {
        return ts.isInterfaceDeclaration(target) ? (target.heritageClauses ? { kind: "unknown", at: here } : objectOf(target.members, at(target))) : read(target);
      } finally {
        resolving.delete(name);
      }
    }
    if (ts.isIntersectionTypeNode(node)) {
      // `A & { extra: … }`: one object with both's members; anything else is no shape this reader compares.
      const parts = node.types.map(read);
      if (parts.every((p) => p.kind === "object" && !p.additional)) {
        // A member on two sides is both types at once, which no option here says: any value.
        const members = new Map<string, ShapeMember>();
        for (const m of parts.flatMap((p) => (p.kind === "object" ? p.members : []))) {
          const had = members.get(m.name);
          members.set(m.name, had ? { ...had, type: { kind: "unknown", at: m.at } } : m);
        }
        return { kind: "object", members: [...members.values()], at: here };
      }
      return { kind: "unknown", at: here };
    }
    // `unknown`, `any`, `object`, `undefined` and the rest say nothing this reader compares.
    return { kind: "unknown", at: here };
  };
  const objectOf = (members: TsNamespace.NodeArray<TsNamespace.TypeElement>, here: Source): Shape => {
    const out = new Map<string, ShapeMember>();
    let additional: Shape | undefined;
    for (const m of members) {
      if (ts.isPropertySignature(m) && m.type) {
        const name = ts.isIdentifier(m.name) || ts.isStringLiteral(m.name) || ts.isNumericLiteral(m.name) ? m.name.text : null;
        // A name given twice (a TypeScript error) is the first.
        if (name !== null && !out.has(name)) out.set(name, { name, optional: m.questionToken !== undefined, type: read(m.type), at: at(m) });
      } else if (ts.isIndexSignatureDeclaration(m) && m.type) additional = read(m.type);
    }
    return { kind: "object", members: [...out.values()], ...(additional ? { additional } : {}), at: here };
  };
  return { shapes: calls.map(read), over };
}

function calledMethod(ts: Ts, arg: TsNamespace.ObjectLiteralExpression): string | null {
  for (const p of arg.properties) {
    if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === "method" && ts.isStringLiteralLike(p.initializer)) return p.initializer.text;
  }
  return null;
}

/** A shape of a catalogue structure's value, met on a page where a result holds that structure. */
export interface SharedShape {
  resource: string;
  shape: Shape;
}

/** One point where the shape allows what the table does not: the path under `result`, what, and where the shape says it. */
export interface Widening {
  path: string;
  what: string;
  at: Source;
  /** A type the table does not give, read from the shape: no disagreement, so no warning; the field's `typeSource`. */
  typed?: boolean;
}

const options = (s: Shape): Shape[] => (s.kind === "union" ? s.options.flatMap(options) : [s]);

/** The model's type of what a shape says, for a result or a member the table does not type. */
export function typeOfShape(s: Shape): { type: TypeRef; nullable: boolean } {
  const opts = options(s);
  const nullable = opts.some((o) => o.kind === "null");
  const types: TypeRef[] = [];
  // Literals of one kind (and format) are one enumeration; a plain option of that kind takes any value. Kept by key,
  // each value in a set, so that a long union of literals costs its length.
  const kinds = new Map<string, { at: number; values: Set<string | number | boolean> | null }>();
  for (const o of opts) {
    if (o.kind === "null") continue;
    const t = typeOfOne(o);
    if (t.kind === "unknown") return { type: t, nullable };
    if (t.kind === "primitive") {
      const key = `${t.type}\u0000${t.format ?? ""}`;
      const had = kinds.get(key);
      if (had) {
        if (had.values && t.enum) for (const v of t.enum) had.values.add(v);
        else had.values = null;
        continue;
      }
      kinds.set(key, { at: types.length, values: t.enum ? new Set(t.enum) : null });
    }
    types.push(t);
  }
  for (const { at, values } of kinds.values()) {
    const t = types[at];
    if (t?.kind !== "primitive") continue;
    const { enum: _e, ...plain } = t;
    types[at] = values ? { ...plain, enum: [...values] } : plain;
  }
  if (types.length === 0) return { type: nullable ? { kind: "null" } : { kind: "unknown" }, nullable: false };
  return { type: types.length === 1 ? (types[0] as TypeRef) : { kind: "union", options: types }, nullable };
}

function typeOfOne(s: Shape): TypeRef {
  switch (s.kind) {
    case "string":
      return { kind: "primitive", type: "string", ...(s.date ? { format: "date-time" as const } : {}), ...(s.literal !== undefined ? { enum: [s.literal] } : {}) };
    case "number":
      return { kind: "primitive", type: "number", ...(s.literal !== undefined ? { enum: [s.literal] } : {}) };
    case "boolean":
      return { kind: "primitive", type: "boolean", ...(s.literal !== undefined ? { enum: [s.literal] } : {}) };
    case "array":
      return { kind: "array", items: typeOfShape(s.items).type };
    case "object": {
      // A numbered name is one instance of a form of keys (widenObject): not a member; the object takes others.
      const members = s.members.filter((m) => !NUMBERED.test(m.name));
      return {
        kind: "object",
        members: members.map((m) => memberOfShape(m)),
        ...(s.additional ? { additional: typeOfShape(s.additional).type } : {}),
        ...(members.length < s.members.length ? { open: true } : {}),
      };
    }
    case "union":
      return typeOfShape(s).type;
    default:
      return { kind: "unknown" };
  }
}

function memberOfShape(m: ShapeMember): Field {
  const { type, nullable } = typeOfShape(m.type);
  return { name: m.name, type, required: !m.optional, nullable, description: "", source: m.at };
}

/** What a table's type admits, by the shape's kinds (a literal is its kind). */
function admits(t: TypeRef, o: Shape): boolean {
  switch (t.kind) {
    case "unknown":
    case "unresolved":
      return true;
    // A structure is an object; whether it may be null is its holder's (the field's), not the structure's.
    case "ref":
      return o.kind === "object" || o.kind === "unknown";
    case "null":
      return o.kind === "null";
    case "union":
      return t.options.some((x) => admits(x, o));
    case "primitive":
      if (o.kind === "unknown") return true;
      if (o.kind === "string") return t.type === "string";
      if (o.kind === "number") return t.type === "integer" || t.type === "number";
      if (o.kind === "boolean") return t.type === "boolean";
      return false;
    case "array":
      return o.kind === "array" || o.kind === "unknown";
    case "object":
      return o.kind === "object" || o.kind === "unknown";
    default:
      return true;
  }
}

const KIND_WORDS: Record<Shape["kind"], string> = { string: "a string", number: "a number", boolean: "a boolean", null: "null", unknown: "any value", array: "an array", object: "an object", union: "a union" };

/**
 * `t` widened by what the shape allows beyond it: the new type, whether null comes (the holder's `nullable`), and
 * whether an empty array comes for an object (the holder's `mayBeEmptyArray`). Each point is one widening.
 */
function widen(t: TypeRef, s: Shape, path: string, out: Widening[], shared: SharedShape[]): { type: TypeRef; nullable: boolean; emptyArray: boolean } {
  const opts = options(s);
  const nullable = opts.some((o) => o.kind === "null");
  let type = t;
  let emptyArray = false;
  // A type the table leaves unknown is the shape's; the table's `any` (an unknown with the words that say so) is a
  // statement of its own, which takes every value the shape allows.
  if (saysAny(t)) return { type, nullable: false, emptyArray: false };
  if (t.kind === "unknown") {
    const read = typeOfShape(s);
    if (read.type.kind !== "unknown") out.push({ path, what: "typed from the shape", at: s.at, typed: true });
    return { type: read.type, nullable: read.nullable, emptyArray: false };
  }
  // The table's options (one, or a union's): the shape's objects and arrays widen those of the same kind in place.
  let mine = type.kind === "union" ? type.options : [type];
  const extra: TypeRef[] = [];
  for (const o of opts) {
    if (o.kind === "null") continue;
    if (o.kind === "object" && mine.some((x) => x.kind === "object")) {
      // Among several objects (forms of the table's union), those that share a member with the shape's are its.
      const shares = (x: TypeRef) => x.kind === "object" && x.members.some((f) => o.members.some((m) => m.name === f.name));
      const any = mine.some(shares);
      mine = mine.map((x) => (x.kind === "object" && (!any || shares(x)) ? widenObject(x, o, path, out, shared) : x));
      continue;
    }
    // A structure of the catalogue (`catalog_product`) is shared by every method that names it: what the shapes say
    // of its members is gathered from every page and widens the structure once (withSharedShapes).
    if (o.kind === "object" && mine.some((x) => x.kind === "ref")) {
      for (const x of mine) if (x.kind === "ref") shared.push({ resource: x.resource, shape: o });
      continue;
    }
    if (o.kind === "array" && mine.some((x) => x.kind === "array")) {
      // Among several lists (of identifiers, or of objects), the one whose items are of the shape's items' kind.
      const alike = (x: TypeRef) => x.kind === "array" && options(o.items).some((i) => i.kind === "unknown" || (i.kind === "object" ? x.items.kind === "object" || x.items.kind === "ref" : admits(x.items, i)));
      const any = mine.some(alike);
      mine = mine.map((x) => {
        if (x.kind !== "array" || (any && !alike(x))) return x;
        const items = widen(x.items, o.items, `${path}[]`, out, shared);
        return { ...x, items: holderless(items, x.items, `${path}[]`, o.items.at, out) };
      });
      continue;
    }
    if (mine.some((x) => admits(x, o))) continue;
    // `[]` where the table says object: PHP's empty array for an empty map, the model's `mayBeEmptyArray`.
    if (o.kind === "array" && mine.some((x) => x.kind === "object") && (o.items.kind === "unknown" || o.items.kind === "null")) {
      emptyArray = true;
      out.push({ path, what: "an empty array", at: o.at });
      continue;
    }
    out.push({ path, what: KIND_WORDS[o.kind], at: o.at });
    extra.push(typeOfOne(o.kind === "string" || o.kind === "number" || o.kind === "boolean" ? { ...o, literal: undefined } : o));
  }
  for (const x of extra) if (!mine.some((m) => JSON.stringify(m) === JSON.stringify(x))) mine = [...mine, x];
  const before = type.kind === "union" ? type.options : [type];
  const same = mine.length === before.length && mine.every((x, i) => x === before[i]);
  if (!same) type = mine.length === 1 ? (mine[0] as TypeRef) : { kind: "union", options: mine };
  return { type, nullable, emptyArray };
}

/** The table's own "any value" (`any`, `mixed`: reference/type-words.ts), as against a type it does not give. */
const saysAny = (t: TypeRef): boolean => t.kind === "unknown" && (t.note ?? "").startsWith("any type");

/**
 * A widened type where no field holds it (a list's items, a map's values): null and the empty array are options of
 * the type itself, each said where it is new.
 */
function holderless(w: { type: TypeRef; nullable: boolean; emptyArray: boolean }, was: TypeRef, path: string, at: Source, out: Widening[]): TypeRef {
  let type = w.type;
  if (w.nullable && !admits(type, { kind: "null", at })) {
    if (!(was.kind === "unknown" && !saysAny(was))) out.push({ path, what: "null", at });
    type = orNull(type);
  }
  if (w.emptyArray) type = { kind: "union", options: [...(type.kind === "union" ? type.options : [type]), { kind: "array", items: { kind: "unknown" } }] };
  return type === was ? was : type;
}

const orNull = (t: TypeRef): TypeRef => (t.kind === "union" ? (t.options.some((o) => o.kind === "null") ? t : { kind: "union", options: [...t.options, { kind: "null" }] }) : { kind: "union", options: [t, { kind: "null" }] });

// From the digits' start only: a long run of digits before a letter was tried from each of them.
const NUMBERED = /(?<!\d)\d{3,}$/;

function widenObject(t: Extract<TypeRef, { kind: "object" }>, s: Extract<Shape, { kind: "object" }>, path: string, out: Widening[], shared: SharedShape[]): TypeRef {
  // One copy, changed in place, and the members by name: an object of many members costs their number.
  const members = [...t.members];
  let changed = false;
  const byName = new Map<string, number>();
  members.forEach((f, i) => byName.has(f.name) || byName.set(f.name, i));
  // An object whose keys are forms (`UF_...`) or a map: the shape's members may be such keys; none is added.
  const closedSet = !t.keys?.length && !t.additional && t.members.length > 0;
  for (const m of s.members) {
    const i = byName.get(m.name) ?? -1;
    const here = path === "" ? m.name : `${path}.${m.name}`;
    if (i < 0) {
      // A numbered name (`property258`, `field7097`, `UF_CRM_1707997209`) is one instance of a form of keys the
      // platform makes per portal, not a member every answer has: said, not added.
      if (closedSet && NUMBERED.test(m.name)) out.push({ path: here, what: "a numbered key the table does not list (an instance of a form, not added)", at: m.at });
      else if (closedSet) {
        out.push({ path: here, what: "a member the table does not list", at: m.at });
        byName.set(m.name, members.length);
        members.push({ ...memberOfShape(m), required: false });
        changed = true;
      }
      continue;
    }
    const f = members[i] as Field;
    const mark = out.length;
    const w = widen(f.type, m.type, here, out, shared);
    const optional = m.optional && f.required;
    if (optional) out.push({ path: here, what: "absent", at: m.at });
    const nullable = w.nullable && !f.nullable && !admits(w.type, { kind: "null", at: m.at });
    if (w.type === f.type && !nullable && !w.emptyArray && !optional) continue;
    // Null where the table gives no type is the shape's reading, not a disagreement.
    if (nullable && !(f.type.kind === "unknown" && !saysAny(f.type))) out.push({ path: here, what: "null", at: m.at });
    // A type read from the shape where the table gives none has the shape's position as its own (decisions.md D29).
    const typed = out.slice(mark).some((x) => x.typed);
    const next: Field = { ...f, type: w.type, nullable: f.nullable || nullable, ...(w.emptyArray ? { mayBeEmptyArray: true } : {}), ...(optional ? { required: false } : {}), ...(typed && !f.typeSource ? { typeSource: m.at } : {}) };
    members[i] = next;
    changed = true;
  }
  if (s.additional && t.additional) {
    const w = widen(t.additional, s.additional, `${path}[*]`, out, shared);
    return { ...t, members: changed ? members : t.members, additional: holderless(w, t.additional, `${path}[*]`, s.additional.at, out) };
  }
  return changed ? { ...t, members } : t;
}

/**
 * Widens the method's result by each shape its page declares, and says each point in one warning at the first. A
 * page whose shape agrees with its table is unchanged and said nothing. Returns the shapes of the catalogue's
 * structures the result holds, for withSharedShapes.
 */
export function applyResultShapes(method: Method, shapes: readonly Shape[], diagnostics: Diagnostic[]): SharedShape[] {
  const out: Widening[] = [];
  const shared: SharedShape[] = [];
  for (const s of shapes) {
    if (!method.result) {
      const read = typeOfShape(s);
      if (read.type.kind === "unknown") continue;
      method.result = { type: read.nullable ? orNull(read.type) : read.type, key: null, description: "", empty: [], source: s.at };
      continue;
    }
    const w = widen(method.result.type, s, "", out, shared);
    const nullable = w.nullable && !admits(w.type, { kind: "null", at: s.at });
    if (nullable && !out.some((x) => x.path === "" && x.what === "null")) out.push({ path: "", what: "null", at: s.at });
    method.result = { ...method.result, type: nullable ? orNull(w.type) : w.type, ...(w.emptyArray ? { mayBeEmptyArray: true } : {}) };
  }
  warn(`${method.name}'s result`, "result", out, diagnostics);
  return shared;
}

/**
 * Widens each structure of the catalogue by what the shapes of every page that holds it say (in page order), and
 * says each point once, at the first shape that says it, in one warning per structure. A structure inside another is
 * widened by the shapes of its members the same way. The catalogue's own list is left as it is.
 */
export function withSharedShapes(catalogue: readonly Resource[], shared: readonly SharedShape[], diagnostics: Diagnostic[]): Resource[] {
  const resources = [...catalogue];
  const byName = new Map(resources.map((r, i) => [r.name, i]));
  const queue = [...shared];
  const points = new Map<string, Widening[]>();
  // Each shape is a part of a page's shape, and a nested one a smaller part: the queue ends.
  for (let q = 0; q < queue.length; q++) {
    const { resource, shape } = queue[q] as SharedShape;
    const i = byName.get(resource);
    if (i === undefined) continue;
    const r = resources[i] as Resource;
    const out = points.get(resource) ?? [];
    points.set(resource, out);
    const w = widen(r.type, shape, "", out, queue);
    if (w.type !== r.type) resources[i] = { ...r, type: w.type };
  }
  for (const [name, out] of points) {
    const r = resources[byName.get(name) as number] as Resource;
    warn(`the structure '${r.title || r.name}' (the catalogue's, shared by every method that names it)`, r.name, out, diagnostics);
  }
  return resources;
}

/** One warning for the points of one result or structure, at the first; each point once (a union's options meet it again). */
function warn(of: string, root: string, out: readonly Widening[], diagnostics: Diagnostic[]): void {
  const seen = new Set<string>();
  const said = out.filter((x) => {
    const key = `${x.path}\u0000${x.what}`;
    if (x.typed || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (said.length === 0) return;
  const first = said[0] as Widening;
  const points = said.map((x) => `${x.path === "" ? root : x.path.startsWith("[") ? `${root}${x.path}` : `${root}.${x.path}`}: ${x.what} (${x.at.file === first.at.file ? "" : `${x.at.file}:`}${x.at.line})`);
  diagnostics.push(
    diagnostic("result-shape-differs", { ...first.at, endLine: first.at.line, endColumn: first.at.column + 1 }, { of, count: said.length, points: points.slice(0, 8).join("; ") + (points.length > 8 ? `; and ${points.length - 8} more` : "") }),
  );
}
