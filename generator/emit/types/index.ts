import { basename } from "node:path";
import { onReferencePage, publicUrl, sectionAnchorAt } from "../../model/sections.js";
import type { Field, Method, Model, Source } from "../../model/view.js";
import { atLeastOneOf, isListMethod, typedMethods } from "../../model/questions.js";
import { methodDoc } from "../ts/method-doc.js";
import { words } from "../prose.js";
import { type GeneratedFile, packageJsonFile } from "../files.js";
import { type Templates, render } from "../templates.js";
import { methodTypeBase, ordinal, propertyKey, stringLiteral } from "../names.js";
import { type TsDeclaration, type TsMember, type TsType, keyword, printDeclaration, printExtends, printImport, reference, union } from "../ts/layout.js";
import { declaredNames, splitAreas, usedNames } from "../areas.js";
import { memoized, methodContext, nodeText } from "../memo.js";
import { NOT_SHOWN, type PrintContext, doc, memberNode, readElsewhere, sentence, typeNode } from "../ts/printer.js";

/**
 * Emits the types package: a type for every resource and nested shape, params/result/error-code types for every
 * method of both versions, one method map per version, and the error catalogue as literal unions. They are split by
 * area (areas.ts, D14): `areas/<key>.d.ts` holds an area's methods and the resources only it uses, and is the
 * package's subpath entry `<package>/<key>`; `common.d.ts` holds what areas share; `index.d.ts` re-exports both and
 * joins the areas' method maps. The package has no runtime: `index.js` is an empty module so that bundlers that
 * resolve it (from any entry) find one.
 */

export interface TypesOutput {
  /** `types/common.d.ts`: what every area shares (the envelope, shared resources, the error catalogue). */
  common: string;
  /** `types/areas/<key>.d.ts`: an area's resources, its methods' types and its method maps. */
  areas: Array<{ key: string; text: string }>;
  /** `types/index.d.ts`: everything, and the method maps of all areas. */
  index: string;
}

/** `string & {}`: any string, beside known literals that stay offered (an open set). */
const openString: TsType = { kind: "intersection", types: [keyword("string"), { kind: "object", members: [], expanded: false }] };

function literalUnion(values: Iterable<string>): TsType {
  const list = [...new Set(values)];
  return list.length === 0 ? keyword("never") : union(list.map((v) => keyword(stringLiteral(v))));
}

/** Prints declarations in their final layout (ts/layout.ts), each followed by a newline. */
function print(...declarations: TsDeclaration[]): string {
  return declarations.map(printDeclaration).join("");
}

const alias = (comment: string, name: string, type: TsType): TsDeclaration => ({ kind: "alias", comment, head: `export type ${name}`, type });
const iface = (comment: string, name: string, members: TsMember[]): TsDeclaration => ({ kind: "interface", comment, head: `export interface ${name}`, members });
const quotedPick = (name: string, keys: string[]): TsType => reference("Required", [reference("Pick", [reference(name), union(keys.map((k) => keyword(stringLiteral(k))))])]);

function paramsDecl(m: Method, base: string, ctx: PrintContext, model: Model): string {
  const name = `${base}Params`;
  const head = doc([`Parameters of \`${m.name}\`${m.version === "v3" ? " (3.0)" : ""}.`], ctx, m.source);
  if (!m.described) return print(alias(head, name, reference("Record", [keyword("string"), keyword("unknown")])));
  if (m.params.length === 0) return print(alias(head, name, reference("EmptyParams")));
  const members = m.params.map((p) => memberNode(p, ctx));
  const forms = m.constraints.find((c) => c.kind === "call-forms");
  const atLeast = m.constraints.filter((c) => c.kind === "at-least-one");
  if (!forms && atLeast.length === 0) return print(iface(head, name, members));
  const parts: TsType[] = [reference(`${name}Base`)];
  for (const known of atLeastOneOf(m)) parts.push(union(known.map((p) => quotedPick(`${name}Base`, [p]))));
  if (forms && forms.kind === "call-forms") {
    // Any one complete form; the spec does not make the forms exclude each other (D8, issue 14).
    parts.push(union(forms.forms.map((form) => quotedPick(`${name}Base`, form))));
  }
  return print(
    iface(doc([`The parameters of \`${m.name}\` without the constraints between them.`], ctx, m.source), `${name}Base`, members),
    alias(head, name, { kind: "intersection", types: parts }),
  );
}

function resultDecl(m: Method, base: string, ctx: PrintContext): string {
  const name = `${base}Result`;
  const r = m.result;
  const head = doc([`What \`${m.name}\`${m.version === "v3" ? " (3.0)" : ""} returns under \`result\`.`, r?.description ? sentence(r.description) : null, ...(r?.empty ?? []).map(sentence), !r ? "The spec does not state the result." : r.type.kind === "unknown" ? NOT_SHOWN : null], ctx, r?.source ?? m.source);
  if (!r) return print(alias(head, name, keyword("unknown")));
  const value = typeNode(r.type, ctx);
  const withEmpty = r.mayBeEmptyArray ? union([value, keyword("[]")]) : value;
  if (r.key === null) return print(alias(head, name, withEmpty));
  return print(iface(head, name, [{ key: propertyKey(r.key), type: withEmpty }]));
}

/**
 * The codes a method's errors may carry. `never` says the spec lists no error of the method; where the spec leaves
 * them open (`errorsOpen`), the union stays open with `(string & {})`, which editors still complete from the listed
 * codes.
 */
function errorCodesDecl(m: Method, base: string, ctx: PrintContext): string {
  const codes = m.errors.map((e) => e.code).filter((c): c is string => c !== null);
  const listed = literalUnion(codes);
  const open = m.errorsOpen;
  const type = open ? (codes.length === 0 ? openString : union([listed, openString])) : listed;
  // Codes a page adds where the spec leaves the method's errors open (D24): their input, and the page (D29).
  const onPage = ctx.fromReference;
  const elsewhere = onPage ? m.errors.filter((e) => e.code !== null && onPage(e.source) !== onPage(m.source)) : [];
  const from = elsewhere[0] ? readElsewhere(`Codes ${[...new Set(elsewhere.map((e) => (e.code === "" ? '`""` (empty)' : `\`${e.code}\``)))].join(", ")}`, m.source, elsewhere[0].source, ctx) : { note: null, tags: [] };
  const lines = [
    `Error codes the spec lists for \`${m.name}\`${m.version === "v3" ? " (3.0)" : ""}.`,
    from.note,
    open
      ? `Open: other codes may come (${words(open.reason)}).`
      : codes.length === 0
        ? "The spec lists no error of this method's own; the system errors (`SystemErrorCode`) may answer any method."
        : null,
  ];
  return print(alias(doc(lines, ctx, m.source, from.tags), `${base}ErrorCode`, type));
}

/** An area's method map; `ctx` is the area files', `keyOf` the print memo's data of a method's texts in them. */
function methodMap(name: string, methods: Method[], ctx: PrintContext, model: Model, keyOf: (m: Method) => string, comment?: string): string {
  const entries: TsMember[] = [];
  for (const m of methods) {
    const base = methodTypeBase(m);
    const flags = [m.applicationContextOnly, m.idempotencyKey, isListMethod(model, m)].map((f) => keyword(String(f)));
    const spec = reference("MethodSpec", [reference(`${base}Params`), reference(`${base}Result`), reference(`${base}ErrorCode`), ...flags]);
    const comment = memoized("types area method doc", () => keyOf(m), () => methodDoc(m, ctx, model));
    for (const key of [m.name, ...m.aliases]) entries.push({ ...(comment ? { comment } : {}), key: propertyKey(key), type: spec });
  }
  return print({ kind: "interface", ...(comment ? { comment } : {}), head: `export interface ${name}`, members: entries });
}

function resourceDecl(r: Model["resources"][number], ctx: PrintContext): string {
  const description = [r.title, r.description, ...r.typingRules.map((t) => t.text), ...r.notes.map((n) => n.text)].map((x) => (x ? sentence(x) : null));
  if (r.type.kind === "object" && !r.type.additional && !r.type.extends) {
    const extra: TsMember[] = r.type.open ? [{ key: "[key: string]", type: keyword("unknown") }] : [];
    return print(iface(doc(description, ctx, r.source), r.name, [...r.type.members.map((f) => memberNode(f, ctx)), ...extra]));
  }
  return print(alias(doc(description, ctx, r.source), r.name, typeNode(r.type, ctx)));
}

function fieldsInterface(name: string, fields: Field[], ctx: PrintContext, description: string[], at: Source | undefined, extra: TsMember[] = []): string {
  return print(iface(doc(description, ctx, at), name, [...fields.map((f) => memberNode(f, ctx)), ...extra]));
}

/** Where the types package ships the spec its declarations come from (their `@see` targets). */
export function shippedSpecPath(specPath: string): string {
  return `spec/${basename(specPath)}`;
}

/**
 * The shipped spec and the anchor of the last heading at or before the position: the section that holds it. A model
 * read from published pages (the platform's reference) points at each page's public URL instead (decisions.md D20).
 */
function seeFor(model: Model, specPath: string): (at: Source) => string | null {
  const pages = model.publicPages;
  const target = shippedSpecPath(specPath);
  // A model of the spec and the reference together cites each fact where it was read (D29). A fragment the pages
  // include (`_includes/`) is published only inside them: no URL of its own, so no `@see`.
  return (at) => {
    if (pages && onReferencePage(model, at)) return publicUrl(pages, at.file);
    const anchor = sectionAnchorAt(model, at.line);
    return anchor ? `${target}#${anchor}` : target;
  };
}

export function emitTypes(model: Model, specPath: string, header: string): TypesOutput {
  const ctx: PrintContext = { resourceName: (n) => n, see: seeFor(model, specPath), fromReference: (at) => onReferencePage(model, at) };
  const out: string[] = [`// ${header}\n`];
  const member = (key: string, type: TsType, comment?: string): TsMember => ({ ...(comment ? { comment } : {}), key, type });
  out.push(print(alias(doc(["A decimal string: identifiers and counters of the legacy responses (\"8017\")."], ctx), "DecimalString", keyword("`${bigint}`"))));
  out.push(print(alias(doc(["An ISO 8601 date-time with offset, as a string."], ctx), "DateTimeString", keyword("string"))));
  out.push(print(alias(doc(["A method that takes no parameters."], ctx), "EmptyParams", reference("Record", [keyword("string"), keyword("never")]))));
  out.push(
    print(
      iface(doc(["What the generated client and server know of a method."], ctx), "MethodSpec<P, R, E extends string, A extends boolean, I extends boolean, L extends boolean>", [
        member("params", reference("P")),
        member("result", reference("R")),
        member("errors", reference("E")),
        member("applicationContextOnly", reference("A"), "/** A webhook gets `WRONG_AUTH_TYPE`. */"),
        member("idempotencyKey", reference("I"), "/** Honours `Idempotency-Key` (3.0). */"),
        member("list", reference("L"), "/** A legacy list method: pages of up to 50 records, offset `start`. */"),
      ]),
    ),
  );
  if (model.envelope) {
    out.push(fieldsInterface("Time", model.envelope.time, ctx, ["Object `time`: timing data of every response."], model.envelope.source));
    out.push(fieldsInterface("LegacyErrorBody", model.envelope.legacyErrorBody, ctx, ["Legacy error body. Some errors add extra members."], model.envelope.source, [member("[member: string]", keyword("unknown"))]));
    const result = model.envelope.members.find((m) => m.name === "result");
    const envelopeDoc = doc(["Success: HTTP 200, the envelope of every method.", result?.description ? sentence(result.description) : null], ctx, model.envelope.source);
    // Members beyond `result` and `time` the input states (the reference's `total` and `next` of list methods).
    const envelopeAt = model.envelope.source;
    const more = model.envelope.members
      .filter((f) => f.name !== "result" && f.name !== "time")
      .map((f) => {
        const node = memberNode(f, ctx, { optional: !f.required });
        // D29: a member read from the other input than the envelope's (the pages' `total` beside the spec's envelope).
        const from = readElsewhere("Member", envelopeAt, f.source, ctx);
        // Its `@see` is the member's own page (the note's target, once).
        return from.note ? { ...node, comment: doc([f.description ? sentence(f.description) : null, from.note], ctx, f.source) } : node;
      });
    out.push(print(iface(envelopeDoc, "Envelope<R>", [member("result", reference("R")), member("time", reference("Time")), ...more])));
  }
  const v3Body = model.envelope?.v3ErrorBody;
  if (model.envelope && v3Body) {
    // Read from the reference's include (issue 29: the gap a page answers); a model of both inputs says so.
    const from = readElsewhere("Members", model.envelope.source, v3Body[0]?.source, ctx);
    out.push(fieldsInterface("V3ErrorBody", v3Body, ctx, ["Body of 3.0 error responses.", ...(from.note ? [from.note] : [])], v3Body[0]?.source));
  } else {
    const v3Gap = model.knownGaps.find((g) => g.topic === "v3-error-body");
    out.push(print(alias(doc(["Body of 3.0 error responses.", NOT_SHOWN], ctx, v3Gap?.source), "V3ErrorBody", keyword("unknown"))));
  }
  const { areas, common } = splitAreas(model, { legacy: typedMethods(model, "legacy"), v3: typedMethods(model, "v3") });
  for (const r of common) out.push(resourceDecl(r, ctx));
  const byKind = (kind: string) => model.errors.catalogue.filter((e) => e.kind === kind).map((e) => e.code);
  out.push(print(alias(doc(["Codes of the system errors table (may answer any method), with the codes the older description adds."], ctx), "SystemErrorCode", literalUnion(byKind("system")))));
  out.push(print(alias(doc(["Codes of the 3.0 errors table."], ctx), "V3ErrorCode", literalUnion(byKind("v3")))));
  out.push(print(alias(doc(["Codes of the authorization failures table."], ctx), "AuthErrorCode", literalUnion(byKind("auth")))));
  const own = model.methods.flatMap((m) => m.errors.map((e) => e.code)).filter((c): c is string => c !== null).sort(ordinal);
  const every = union([reference("SystemErrorCode"), reference("V3ErrorCode"), reference("AuthErrorCode"), literalUnion(own)]);
  out.push(print(alias(doc(["Every error code the spec names: the catalogue and every method's own."], ctx), "ErrorCode", every)));
  const scopeList = model.scopeList ?? [];
  if (scopeList.length > 0) {
    // The platform's list of scopes (the reference's "Available Scopes" page), in its order.
    const first = scopeList[0]?.source;
    const deprecated = scopeList.filter((s) => s.deprecated).map((s) => `\`${s.code}\``);
    // A model of the spec has its sections: the list read from the reference beside it says so (D29); a model of the
    // reference alone has none, and the list is its own.
    const from = first ? readElsewhere("The list", model.sections[0]?.source ?? first, first, ctx) : { note: null };
    const lines = [
      "The platform's scopes, as its list of scopes names them: what a method's scope names, an application asks for at installation and a webhook is given.",
      deprecated.length > 0 ? `Deprecated (the list: not to be used): ${deprecated.join(", ")}.` : null,
      from.note,
    ];
    out.push(print(alias(doc(lines, ctx, first), "ScopeCode", literalUnion(scopeList.map((s) => s.code)))));
  }
  if (model.eventPayloads && model.eventPayloads.length > 0) out.push(...eventDecls(model.eventPayloads, ctx));
  if (model.placements && model.placements.length > 0) out.push(...placementDecls(model.placements, ctx));
  const commonText = out.join("\n");
  const commonNames = new Set(declaredNames(commonText));
  // An area's file is one folder down: its `@see` goes up to the shipped spec.
  const areaCtx: PrintContext = { ...ctx, see: (at) => (onReferencePage(model, at) ? ctx.see(at) : `../${ctx.see(at) ?? ""}`) };
  // What a method's texts in an area file are printed from (emit/memo.ts): the method, the model around it, and the
  // shipped spec's path that their `@see` names (not the model's).
  const keyOf = (m: Method) => `${methodContext(model)}\0${shippedSpecPath(specPath)}\0${nodeText(m)}`;
  const areaFiles = areas.map((area) => {
    const ctx = areaCtx;
    const body: string[] = area.resources.map((r) => resourceDecl(r, ctx));
    for (const version of ["legacy", "v3"] as const) {
      for (const m of area[version]) {
        const base = methodTypeBase(m);
        // Found in the print memo by the method and its context (emit/memo.ts): a rerun prints only changed methods.
        body.push(memoized("types area method", () => keyOf(m), () => [paramsDecl(m, base, ctx, model), resultDecl(m, base, ctx), errorCodesDecl(m, base, ctx)].join("\n")));
      }
    }
    const mapDoc = (v: string) => `/** The ${v} methods of area \`${area.key}\`; \`LegacyMethods\` and \`V3Methods\` of the package's main entry hold every area's. */\n`;
    body.push(methodMap("LegacyMethods", area.legacy, ctx, model, keyOf, mapDoc("legacy")));
    body.push(methodMap("V3Methods", area.v3, ctx, model, keyOf, mapDoc("3.0")));
    const text = body.join("\n");
    const imports = usedNames(text, commonNames);
    const head = [`// ${header}`, ...(imports.length ? [printImport("import type", imports, "../common.js")] : []), 'export type * from "../common.js";', ""];
    return { area, text: [...head, text].join("\n"), names: declaredNames(text).filter((n) => n !== "LegacyMethods" && n !== "V3Methods") };
  });
  const index: string[] = [`// ${header}`];
  for (const { area } of areaFiles) {
    const maps = [...(area.legacy.length ? [`LegacyMethods as Legacy_${area.ident}`] : []), ...(area.v3.length ? [`V3Methods as V3_${area.ident}`] : [])];
    index.push(printImport("import type", maps, `./areas/${area.key}.js`));
  }
  index.push('export type * from "./common.js";');
  for (const { area, names } of areaFiles) if (names.length) index.push(printImport("export type", names, `./areas/${area.key}.js`));
  index.push("");
  const maps = [
    ["LegacyMethods", "legacy", "Legacy"],
    ["V3Methods", "3.0", "V3"],
  ] as const;
  for (const [name, label, prefix] of maps) {
    const bases = areaFiles.filter(({ area }) => area[prefix === "Legacy" ? "legacy" : "v3"].length > 0).map(({ area }) => `${prefix}_${area.ident}`);
    index.push(`/** Every ${label} method: the maps of the areas, each also the entry \`<package>/<area>\` (\`tasks\` for \`tasks.task.get\`). */`);
    index.push(printExtends(`export interface ${name}`, bases));
  }
  index.push("export type LegacyMethodName = keyof LegacyMethods;\nexport type V3MethodName = keyof V3Methods;\n");
  return { common: commonText, areas: areaFiles.map(({ area, text }) => ({ key: area.key, text })), index: index.join("\n") };
}

export function typesFiles(
  model: Model,
  specPath: string,
  header: string,
  pkg: { name: string; version: string; templates: Templates },
): GeneratedFile[] {
  const out = emitTypes(model, specPath, header);
  const exports: Record<string, unknown> = { ".": { types: "./index.d.ts", default: "./index.js" } };
  // The shared declarations are an entry of their own for the client's generic declarations (`client/shape.d.ts`).
  exports["./common"] = { types: "./common.d.ts", default: "./index.js" };
  for (const a of out.areas) exports[`./${a.key}`] = { types: `./areas/${a.key}.d.ts`, default: "./index.js" };
  exports["./package.json"] = "./package.json";
  return [
    // Printed in prettier's layout by ts/layout.ts, so the formatter leaves it alone (issue 10's speed).
    { path: "types/index.d.ts", raw: true, contents: out.index },
    { path: "types/common.d.ts", raw: true, contents: out.common },
    ...out.areas.map((a): GeneratedFile => ({ path: `types/areas/${a.key}.d.ts`, raw: true, contents: a.text })),
    { path: "types/index.js", raw: true, contents: `// ${header}\n// Types only: this module has no runtime.\nexport {};\n` },
    packageJsonFile("types", { header, name: pkg.name, version: pkg.version, description: `TypeScript types of ${words(model.title)}.` }, { exports }),
    { path: "types/README.md", contents: render(pkg.templates, "types/README.md.hbs", { header, name: pkg.name, title: words(model.title), areas: out.areas.map((a) => a.key) }) },
  ];
}

/**
 * The spec itself, shipped in the types package: every `@see` of the declarations points into it. Kept out of the
 * formatter: after the header line it is the user's text, byte for byte.
 */
export function shippedSpecFile(specPath: string, specText: string, header: string): GeneratedFile {
  // The header every generated file starts with (contracts.md), as an HTML comment: it renders as nothing, and the
  // headings' anchors, which the `@see` tags name, do not depend on lines.
  return { path: `types/${shippedSpecPath(specPath)}`, contents: `<!-- ${header} A copy of the spec, for the declarations' @see. -->\n${specText}` };
}

/**
 * The widgets' placements (the reference's widget pages): `PlacementOptions`, what `PLACEMENT_OPTIONS` holds once
 * parsed (it arrives as a JSON string), keyed by the code the handler gets in `PLACEMENT`; and `PlacementCode`, the
 * codes `placement.bind` takes. A family's code (`CRM_DYNAMIC_XXX_DETAIL_TAB`, `XXX` filled by the platform) is a
 * template literal type, `CRM_DYNAMIC_${string}_DETAIL_TAB`: an index signature of the options, a member of the
 * codes. Codes are capitals, digits and underscores only (the reader's PLACEMENT_CODE), so they print as they are.
 */
function placementDecls(placements: NonNullable<Model["placements"]>, ctx: PrintContext): string[] {
  const entries = placements.flatMap((p) => p.codes.map((code) => ({ code, p }))).sort((a, b) => ordinal(a.code, b.code));
  const pattern = (code: string) => `\`${code.replace(/XXX/g, "${string}")}\``;
  // A page's options, printed once for all its codes (and for the families that take them).
  const types = new Map(placements.map((p): [(typeof placements)[number], TsType] => [p, p.options.length > 0 ? { kind: "object", members: p.options.map((f) => memberNode(f, ctx)), expanded: true } : reference("Record", [keyword("string"), keyword("unknown")])]));
  const typeOf = (p: (typeof placements)[number]): TsType => types.get(p) as TsType;
  // An exact code another page describes that a family's pattern also matches (`SHOP_ORDER_TAB` and `SHOP_XXX_TAB`)
  // must fit the pattern's index signature (TS2411): the signature takes those pages' options too.
  // The exact codes in code order (`entries` is sorted so): a family's candidates are the run that begins with its
  // first part, found by binary search, not a scan of every code for every family.
  const exact = entries.filter(({ code }) => !code.includes("XXX"));
  const from = (prefix: string) => {
    let lo = 0;
    let hi = exact.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ordinal((exact[mid] as (typeof exact)[number]).code, prefix) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const members: TsMember[] = entries.map(({ code, p }) => {
    const family = code.includes("XXX") ? code.split("XXX") : null;
    const fits = (c: string) => family !== null && inFamily(family, c);
    const candidates: typeof exact = [];
    if (family) for (let i = from(family[0] as string); i < exact.length && (exact[i] as (typeof exact)[number]).code.startsWith(family[0] as string); i++) candidates.push(exact[i] as (typeof exact)[number]);
    const others = [...new Set(candidates.filter((e) => e.p !== p && fits(e.code)).map((e) => e.p))];
    return {
      comment: doc([p.description ? words(p.description) : words(p.title), p.options.length === 0 ? "The page lists no keys of its own." : null, others.length > 0 ? `Codes of other pages match this family (${others.flatMap((o) => o.codes.filter(fits)).join(", ")}): their options are among its types.` : null], ctx, p.source).trimEnd(),
      key: family ? `[code: ${pattern(code)}]` : code,
      type: others.length > 0 ? union([typeOf(p), ...others.map(typeOf)]) : typeOf(p),
    };
  });
  const codes = union([...entries.map(({ code }) => keyword(code.includes("XXX") ? pattern(code) : stringLiteral(code))), openString]);
  return [
    print(iface(doc(["What `PLACEMENT_OPTIONS` holds once parsed (it arrives as a JSON string), keyed by the placement's code the handler gets in `PLACEMENT`, as the platform's reference types it. A family of codes (`XXX` filled by the platform, such as a custom object type's number) is a pattern."], ctx), "PlacementOptions", members)),
    print(alias(doc(["The placements the platform's reference describes, as `placement.bind` takes them; an open set."], ctx), "PlacementCode", codes)),
  ];
}

/**
 * Whether a code is of a family (its code split at each `XXX`), as the template literal type reads it: the first
 * part begins it, the last ends it, and the others come in order between. Each part is found at its first place
 * after the one before (the leftmost match leaves the most room for the rest): linear, where one pattern of several
 * wildcards would backtrack on a long code.
 */
function inFamily(parts: readonly string[], code: string): boolean {
  const first = parts[0] as string;
  const last = parts[parts.length - 1] as string;
  if (code.length < first.length + last.length || !code.startsWith(first) || !code.endsWith(last)) return false;
  let at = first.length;
  const end = code.length - last.length;
  for (const part of parts.slice(1, -1)) {
    const i = code.indexOf(part, at);
    if (i < 0 || i + part.length > end) return false;
    at = i + part.length;
  }
  return true;
}

/**
 * What each event's handler receives (the reference's event pages): `EventPayloads` keyed by the code the handler
 * gets in `event`, as the pages type the payload (the server's `createEventHandler` hands it over form-encoded, every
 * scalar a string: `FormEncoded<EventPayloads[E]>`), and `EventName`, the names `event.bind` takes.
 */
function eventDecls(events: NonNullable<Model["eventPayloads"]>, ctx: PrintContext): string[] {
  const sorted = [...events].sort((a, b) => ordinal(a.code, b.code));
  const members: TsMember[] = sorted.map((e) => ({
    // An event whose page lists no payload is `unknown` (a warning of the reading), never `{}`.
    comment: doc([e.description ? words(e.description) : `The event ${e.name}.`, e.fields.length === 0 ? "The page lists no payload: any value." : null], ctx, e.source).trimEnd(),
    key: stringLiteral(e.code),
    type: e.fields.length > 0 ? { kind: "object", members: e.fields.map((f) => memberNode(f, ctx)), expanded: true } : keyword("unknown"),
  }));
  return [
    print(iface(doc(["What the handler of each event receives, keyed by the code it gets in `event`, as the platform's reference types it."], ctx), "EventPayloads", members)),
    print(alias(doc(["The events the platform's reference describes, as `event.bind` takes them (in any case)."], ctx), "EventName", literalUnion(sorted.map((e) => e.name)))),
  ];
}
