import { builders, printer, utils } from "prettier/doc";
import { memoLent, memoized } from "../memo.js";
import { stringLiteral } from "../names.js";
import { indentLines } from "../../util/indent.js";

/**
 * TypeScript declarations printed straight into prettier's layout, without prettier's parser and TS printer.
 *
 * `types/index.d.ts` is by far the largest generated file; formatting it with prettier took longer than reading the
 * spec and emitting everything else (issue 10's speed). The declarations we print use a handful of type
 * constructs, so this module builds, for each construct, the same document prettier 3.10 builds for it (the rules
 * of its `union-type.js`, `intersection-type.js`, `type-parameters.js`, `class-body.js`, `assignment.js` and
 * `key.js`) and lays it out with prettier's own document printer (`prettier/doc`, a 58 KB module that loads in
 * about 10 ms). The result is the text prettier would print: `test/emit/layout.test.ts` formats the output of the real
 * spec and of generated specs with prettier and asserts that nothing changes. A construct not listed here is not
 * printed by this module; a file that needs one goes through prettier as before.
 */

const { align, group, hardline, ifBreak, indent, indentIfBreak, join, line, lineSuffixBoundary, softline } = builders;
const { willBreak } = utils;
type Doc = builders.Doc;

/** The line width of generated code (render/format.ts gives prettier the same). */
export const PRINT_WIDTH = 120;
/** The options the formatter uses for code (render/format.ts): the width and the indent matter here. */
const PRINT_OPTIONS = { printWidth: PRINT_WIDTH, tabWidth: 2, useTabs: false } as const;
/** An interface's member printed at the margin: the width less the indent it is then given (composedInterface). */
const MEMBER_OPTIONS = { ...PRINT_OPTIONS, printWidth: PRINT_WIDTH - PRINT_OPTIONS.tabWidth } as const;

export type TsType =
  /** A keyword (`string`, `null`), a literal (`"Y"`, `false`) or a template literal type: printed as is. */
  | { kind: "keyword"; text: string }
  /** A type name, with type arguments or none (`Task`, `Array<T>`, `Record<string, unknown>`). */
  | { kind: "reference"; name: string; args: TsType[] }
  | { kind: "union"; types: TsType[] }
  | { kind: "intersection"; types: TsType[] }
  /** An object type literal; `expanded` keeps its members on their own lines, as prettier keeps a literal written so. */
  | { kind: "object"; members: TsMember[]; expanded: boolean }
  | { kind: "array"; element: TsType }
  /** `Object[Index]`, as in `LegacyMethods["tasks.task.get"]`. */
  | { kind: "indexed"; object: TsType; index: TsType };

export interface TsMember {
  /** A JSDoc comment, `/** … *\/`, printed on the lines before the member. */
  comment?: string;
  /** The key as printed: an identifier, a quoted name, or an index signature's `[key: string]`. */
  key: string;
  optional?: boolean;
  /** A method signature, `key(parameters): type`, where a property has none. */
  parameters?: TsParameter[];
  /** The property's type; a method's return type. */
  type: TsType;
}

export interface TsParameter {
  name: string;
  type: TsType;
  /** `...name`: the last parameter only. */
  rest?: boolean;
  /** `name?`: may be left out (not with `rest`). */
  optional?: boolean;
}

export type TsDeclaration =
  /** `head` is everything before the body: `export interface Name<T>`. */
  | { kind: "interface"; comment?: string; head: string; members: TsMember[] }
  /** `head` is everything before ` =`: `export type Name`. */
  | { kind: "alias"; comment?: string; head: string; type: TsType };

export const keyword = (text: string): TsType => ({ kind: "keyword", text });
export const reference = (name: string, args: TsType[] = []): TsType => ({ kind: "reference", name, args });

/** A union with nested unions flattened (`A | (B | C)` is `A | B | C`) and repeated keywords once; one option is itself. */
export function union(types: TsType[]): TsType {
  const flat = types.flatMap((t) => (t.kind === "union" ? t.types : [t]));
  const seen = new Set<string>();
  const unique = flat.filter((t) => t.kind !== "keyword" || (!seen.has(t.text) && seen.add(t.text)));
  return unique.length === 1 ? (unique[0] as TsType) : { kind: "union", types: unique };
}

/**
 * Whether every line of code (comments aside: prettier does not wrap them) fits the print width. A built-in template
 * prints its final layout for names of ordinary length; where a name or a package name is long enough to push a line
 * past the width, its output goes through prettier after all.
 */
export function fitsWidth(contents: string): boolean {
  return contents.split("\n").every((l) => l.length <= PRINT_WIDTH || /^\s*(?:\/\/|\/\*|\*)/.test(l));
}

/**
 * Prints a declaration in prettier's layout, at the start of a line; ends with a newline. The text is a function of
 * the declaration's data alone, so a rerun finds it in the print memo (emit/memo.ts) when one is lent.
 */
export function printDeclaration(d: TsDeclaration): string {
  // An interface is looked up member by member (so that a memo entry is always one printer's, used or dropped whole).
  if (d.kind === "interface" && d.members.length > 1 && memoLent() && !d.members.some(memberBreaksLine)) return composedInterface(d);
  return memoized("ts", () => JSON.stringify(d), () => printWhole(d));
}

function printWhole(d: TsDeclaration): string {
  const body = d.kind === "interface" ? [d.head, " ", interfaceBody(d.members)] : [alias(d.head, d.type), ";"];
  const doc: Doc = d.comment ? [comment(d.comment), hardline, body] : body;
  return `${printer.printDocToString(doc, PRINT_OPTIONS).formatted}\n`;
}

/**
 * An interface put together from its members, each printed on its own and found in the print memo: the tree of every
 * method or the handlers' interface holds a member for each of 1,500 methods, and a page that changed changes one.
 * It is the text of the whole: the body's members are separated by hard lines, so none's layout depends on another's,
 * and a member printed at the margin with the width less the indent is the member printed indented (prettier measures
 * what fits from the indent; a line it leaves empty it leaves without the indent). test/emit/layout.test.ts holds it.
 */
function composedInterface(d: Extract<TsDeclaration, { kind: "interface" }>): string {
  const head: Doc = d.comment ? [comment(d.comment), hardline, d.head, " {"] : [d.head, " {"];
  const members = d.members.map((m) => memoized("ts member", () => JSON.stringify(m), () => indentLines(printer.printDocToString(member(m, ";"), MEMBER_OPTIONS).formatted, "  ")));
  return `${printer.printDocToString(head, PRINT_OPTIONS).formatted}\n${members.join("\n")}\n}\n`;
}

/**
 * Whether a member holds a line break outside its comments (a key or a literal type written with one): its lines
 * after the break are not the member's own indented lines, so its interface is printed whole. The emitters write
 * none (names and string literals are escaped); the check keeps the memo's text the whole's if one ever does.
 */
function memberBreaksLine(m: TsMember): boolean {
  return m.key.includes("\n") || typeBreaksLine(m.type) || (m.parameters ?? []).some((p) => p.name.includes("\n") || typeBreaksLine(p.type));
}

function typeBreaksLine(t: TsType): boolean {
  switch (t.kind) {
    case "keyword":
      return t.text.includes("\n");
    case "reference":
      return t.name.includes("\n") || t.args.some(typeBreaksLine);
    case "union":
    case "intersection":
      return t.types.some(typeBreaksLine);
    case "object":
      return t.members.some(memberBreaksLine);
    case "array":
      return typeBreaksLine(t.element);
    case "indexed":
      return typeBreaksLine(t.object) || typeBreaksLine(t.index);
  }
}

/**
 * `import type { A, B } from "x";` and `export type { … } from "x";`: one line when it fits, else one name a line
 * with a trailing comma (prettier's module specifiers).
 */
export function printImport(head: string, names: string[], source: string): string {
  // prettier never breaks an import of one name, however long the line.
  if (names.length === 1) return `${head} { ${names[0]} } from ${stringLiteral(source)};`;
  const doc = group([head, " {", indent([line, join([",", line], names)]), ifBreak(","), line, "} from ", stringLiteral(source), ";"]);
  return printer.printDocToString(doc, PRINT_OPTIONS).formatted;
}

/**
 * `head extends A, B {}`, an empty interface joining others, as prettier prints it: on one line when it fits, else
 * `extends` on a line of its own and one base a line below it.
 */
export function printExtends(head: string, bases: string[]): string {
  if (bases.length === 0) return `${head} {}`;
  const flat = `${head} extends ${bases.join(", ")} {}`;
  if (flat.length <= PRINT_WIDTH) return flat;
  return `${head}\n  extends\n${bases.map((b, i) => `    ${b}${i === bases.length - 1 ? " {}" : ","}`).join("\n")}`;
}

/**
 * A JSDoc comment re-indented as prettier re-indents a block comment whose lines all start with `*`: each line after
 * the first trimmed and put one space in.
 */
function comment(text: string): Doc {
  const lines = text.trim().split("\n");
  if (!lines.slice(1).every((l) => l.trim().startsWith("*"))) throw new Error(`not a JSDoc comment: ${text.slice(0, 80)}`);
  return join(hardline, lines.map((l, i) => (i === 0 ? l.trimEnd() : ` ${l.trim()}`)));
}

function interfaceBody(members: TsMember[]): Doc {
  if (members.length === 0) return "{}";
  return ["{", indent([hardline, join(hardline, members.map((m) => member(m, ";")))]), hardline, "}"];
}

function member(m: TsMember, semicolon: Doc): Doc {
  const signature = m.parameters ? methodSignature(m.key, m.parameters, m.type) : group([m.key, m.optional ? "?" : "", ": ", type(m.type, "annotation")]);
  const printed = [signature, semicolon];
  return m.comment ? [comment(m.comment), hardline, printed] : printed;
}

/** Where a type is printed; decides a union's indent and the parentheses prettier adds. */
type Place = "annotation" | "alias" | "alias-broken" | "union" | "intersection" | "array" | "indexed" | "arguments";

function isObjectType(t: TsType): boolean {
  return t.kind === "object";
}

function isSimple(t: TsType): boolean {
  return t.kind === "keyword" || (t.kind === "reference" && t.args.length === 0);
}

/** `{ … } | null` stays on the object's lines: one object-like option, the others `null` (prettier's `shouldHugUnionType`). */
function hugs(t: TsType & { kind: "union" }): boolean {
  const objectLike = t.types.find((o) => o.kind === "object" || o.kind === "reference");
  return objectLike !== undefined && t.types.every((o) => o === objectLike || (o.kind === "keyword" && (o.text === "null" || o.text === "void")));
}

function type(t: TsType, place: Place): Doc {
  switch (t.kind) {
    case "keyword":
      return t.text;
    case "reference":
      return [t.name, typeArguments(t.args)];
    case "indexed":
      return [type(t.object, "indexed"), "[", type(t.index, "annotation"), "]"];
    case "array":
      return [type(t.element, "array"), "[]"];
    case "object":
      return objectType(t.members, t.expanded);
    case "intersection": {
      const printed = intersection(t.types);
      return place === "union" || place === "intersection" || place === "array" || place === "indexed" ? ["(", printed, ")"] : printed;
    }
    case "union": {
      const options = t.types.map((o) => type(o, "union"));
      const parenthesized = place === "union" || place === "intersection" || place === "array" || place === "indexed";
      if (hugs(t)) return parenthesized ? ["(", join(" | ", options), ")"] : join(" | ", options);
      const printed = group(options.map((o, i) => [i === 0 ? ifBreak("| ") : [line, "| "], align(2, o)]));
      if (parenthesized) return ["(", group([indent([softline, printed]), softline]), ")"];
      if (place === "alias-broken" || place === "arguments") return printed;
      return group(indent([softline, printed]));
    }
  }
}

/**
 * `key(a: A, ...b: B): R` (prettier's method signature and function parameters): the parameters break one a line,
 * with a trailing comma unless the last is a rest parameter; one parameter is grouped apart from the return type
 * when that breaks.
 *
 * A known gap (found by test/emit/layout.test.ts's property): with one parameter and an object type inside the return
 * type (`f(x: X): string & { … }`) that breaks for its width, prettier reads the printed object as written expanded
 * and then keeps the parameter on the first line, where this prints it broken; prettier itself needs a second pass to
 * settle there. Which way prettier settles depends on whether that object breaks, which a doc cannot ask before it is
 * printed. No emitter prints such a signature (the client's calls return references), so the property leaves it out.
 */
function methodSignature(key: string, parameters: TsParameter[], returns: TsType): Doc {
  const returnDoc: Doc = [": ", type(returns, "annotation")];
  if (parameters.length === 0) return group([key, "()", group(returnDoc)]);
  const rest = parameters.at(-1)?.rest === true;
  if (parameters.some((p) => p.rest && p.optional)) throw new Error(`a rest parameter is never optional: ${key}`);
  const first = parameters[0] as TsParameter;
  // One object-typed parameter hugs the parentheses, its object not grouped apart (prettier's
  // `shouldHugTheOnlyFunctionParameter`).
  const hug = parameters.length === 1 && !rest && first.type.kind === "object";
  const printed = parameters.map((p, i) => [i === parameters.length - 1 && p.rest ? "..." : "", p.name, p.optional ? "?" : "", ": ", type(p.type, "annotation")]);
  const list: Doc =
    hug && first.type.kind === "object"
      ? ["(", first.name, first.optional ? "?" : "", ": ", objectType(first.type.members, first.type.expanded, false), ")"]
      : ["(", indent([softline, join([",", line], printed)]), rest ? "" : ifBreak(","), softline, ")"];
  const only = parameters.length === 1 && (returns.kind === "object" || willBreak(returnDoc));
  return group([key, only ? group(list) : list, group(returnDoc)]);
}

function typeArguments(args: TsType[]): Doc {
  if (args.length === 0) return "";
  const printed = args.map((a) => type(a, "arguments"));
  const only = args[0] as TsType;
  const hugged = args.length === 1 && (isSimple(only) || isObjectType(only) || (only.kind === "union" && hugs(only)));
  if (hugged) return ["<", join(", ", printed), ">"];
  return group(["<", indent([softline, join([",", line], printed)]), softline, ">"]);
}

function objectType(members: TsMember[], expanded: boolean, grouped = true): Doc {
  if (members.length === 0) return "{}";
  const parts = members.map((m, i) => member(m, i === members.length - 1 ? ifBreak(";") : ";"));
  const content = ["{", indent([line, join(line, parts)]), line, "}"];
  return grouped ? group(content, { shouldBreak: expanded }) : content;
}

function intersection(types: TsType[]): Doc {
  let wasIndented = false;
  return group(
    types.map((t, index) => {
      const printed = type(t, "intersection");
      if (index === 0) return printed;
      const previous = types[index - 1] as TsType;
      if (isObjectType(previous) && isObjectType(t)) return [" & ", wasIndented ? indent(printed) : printed];
      if (!isObjectType(previous) && !isObjectType(t)) return indent([" &", line, printed]);
      if (index > 1) wasIndented = true;
      return [" & ", index > 1 ? indent(printed) : printed];
    }),
  );
}

/** `head = type`: a union that does not hug breaks after `=`; anything else takes prettier's "fluid" layout. */
function alias(head: string, t: TsType): Doc {
  if (t.kind === "union" && !hugs(t)) return group([group(head), " =", group(indent([line, type(t, "alias-broken")]))]);
  const id = Symbol("assignment");
  return group([group(head), " =", group(indent(line), { id }), lineSuffixBoundary, indentIfBreak(type(t, "alias"), { groupId: id })]);
}
