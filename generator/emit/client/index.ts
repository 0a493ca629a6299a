import type { Method, Model, Version } from "../../model/view.js";
import type { GeneratedFile } from "../files.js";
import { REDIS_PEER, packageJsonFile } from "../files.js";
import { methodTypeBase, ordinal, propertyKey, stringLiteral } from "../names.js";
import { type TsMember, type TsType, keyword, printDeclaration, printImport, reference, union } from "../ts/layout.js";
import { type Templates, render } from "../templates.js";
import type { PrintContext } from "../ts/printer.js";
import { cursorMethods, linkFields, pageSizeOf, paramsOptional, typedMethods } from "../../model/questions.js";
import { onReferencePage } from "../../model/sections.js";
import { methodDoc } from "../ts/method-doc.js";
import { memoized, methodContext, nodeText } from "../memo.js";
import { words } from "../prose.js";
import type { ClientData, ClientMethodFlags } from "../../../runtime/shared/data.js";
import { BATCH_MAX_COMMANDS, BATCH_METHOD, idempotencyKeyRule, runtimeFiles } from "../runtime.js";
import type { ClientView } from "../views.js";
import { declaredNames, splitAreas } from "../areas.js";

/**
 * Emits `client/`: the runtime and README from templates, the method table (`methods.js`) and the typed surface
 * (`index.d.ts`: a namespace tree per version and auth kind) from the model.
 */

/** The types package's default name, as runtime/client/shape.ts imports it (the configured name is written instead). */
const DEFAULT_TYPES_PACKAGE = "collab-platform-api-types";

/**
 * `shape.d.ts`'s declarations: runtime/client/shape.ts, a file the runtime's typecheck checks, as the CLI's
 * `loadRuntime` read it (cli/runtime.ts `shapeEntries`): its text after the marker line, and the names it imports from
 * each module (written again here for the configured package names).
 */
export function clientShape(runtime: Readonly<Record<string, string>>): { body: string; imports: Map<string, string[]> } {
  const body = runtime["source/client/shape.body"];
  const imports = runtime["source/client/shape.imports.json"];
  if (body === undefined || imports === undefined) throw new Error("runtime/client/shape.ts is missing from the runtime (loadRuntime reads it)");
  return { body, imports: new Map(Object.entries(JSON.parse(imports) as Record<string, string[]>)) };
}

/**
 * The names a compiled module's declarations export (`export { a, type B } from …`, `export declare const c`,
 * `export type { D } from …`), in an export list's spelling; `default` is left to the caller.
 */
export function exportedNames(dts: string): string[] {
  const out: string[] = [];
  for (const m of dts.matchAll(/^export (type )?\{([^}]*)\}/gm)) {
    for (const raw of (m[2] ?? "").split(",")) {
      const name = raw.trim();
      if (name) out.push(m[1] && !name.startsWith("type ") ? `type ${name}` : name);
    }
  }
  for (const m of dts.matchAll(/^export declare (?:const|function|class|let) ([A-Za-z_$][\w$]*)/gm)) out.push(m[1] as string);
  for (const m of dts.matchAll(/^export (?:interface|type) ([A-Za-z_$][\w$]*)/gm)) out.push(`type ${m[1] as string}`);
  return [...new Set(out)];
}

export interface PackageNames {
  types: string;
  client: string;
  server: string;
}

/** Members of the client object that a method namespace may not shadow (see templates/client/index.js.hbs). */
export const CLIENT_RESERVED = ["call", "request", "paginate", "batch", "v3"];

interface Node {
  method?: { name: string; map: string; doc: string };
  children: Map<string, Node>;
}

function buildTree(methods: Method[], map: string, skip: (m: Method) => boolean, docOf: (m: Method) => string): Node {
  const root: Node = { children: new Map() };
  for (const m of methods) {
    if (skip(m)) continue;
    for (const name of [m.name, ...m.aliases]) {
      const parts = name.split(".");
      if (CLIENT_RESERVED.includes(parts[0] ?? "")) continue;
      let node = root;
      for (const part of parts) {
        let next = node.children.get(part);
        if (!next) {
          next = { children: new Map() };
          node.children.set(part, next);
        }
        node = next;
      }
      node.method = { name, map, doc: docOf(m) };
    }
  }
  return root;
}

/** A namespace tree as an object type: a method is a `MethodFn`, a namespace an object, a name that is both, both. */
function treeType(node: Node): TsMember[] {
  return [...node.children.entries()].map(([key, child]): TsMember => {
    const parts: TsType[] = [];
    if (child.method) {
      const spec: TsType = { kind: "indexed", object: reference(child.method.map), index: keyword(stringLiteral(child.method.name)) };
      parts.push(reference("MethodFn", [spec]));
    }
    if (child.children.size > 0) parts.push({ kind: "object", members: treeType(child), expanded: true });
    const type: TsType = parts.length === 1 ? (parts[0] as TsType) : { kind: "intersection", types: parts };
    return { ...(child.method?.doc ? { comment: child.method.doc } : {}), key: propertyKey(key), type };
  });
}

/** The names of a version's methods that have a flag set; the client needs no other method data at run time. */
function flagged(model: Model, version: Version): ClientMethodFlags {
  const names = (test: (m: Method) => boolean) =>
    typedMethods(model, version)
      .filter(test)
      .flatMap((m) => [m.name, ...m.aliases])
      .sort(ordinal);
  return {
    applicationContextOnly: names((m) => m.applicationContextOnly),
    idempotencyKey: names((m) => m.idempotencyKey),
    // The spec says of no method that it only reads (D2: a name never decides it); the client's option adds them.
    readOnly: [],
  };
}

export function clientFiles(
  model: Model,
  opts: { header: string; version: string; packages: PackageNames; templates: Templates; runtime: Readonly<Record<string, string>> },
): GeneratedFile[] {
  const { header, packages } = opts;
  const pageSize = pageSizeOf(model);
  const codes = model.platform.codes;
  const { areas } = splitAreas(model, { legacy: typedMethods(model, "legacy"), v3: typedMethods(model, "v3") });
  const view: ClientView = {
    header,
    name: packages.client,
    title: words(model.title),
    typesPackage: packages.types,
    retryCodes: codes.retry.value,
    linkFields: linkFields(model),
    pageSize,
    // The spec does not show the maximum batch length: the documentation's, and the server decides.
    batchMax: BATCH_MAX_COMMANDS,
    areas: areas.map((a) => a.key),
  };
  const data: ClientData = {
    legacy: flagged(model, "legacy"),
    v3: flagged(model, "v3"),
    linkFields: view.linkFields,
    retry: {
      codes: view.retryCodes,
      expiredToken: codes.expiredToken.value,
      operationTimeLimit: codes.operationTimeLimit.value,
      queryLimit: codes.queryLimit.value,
      wrongAuthType: codes.wrongAuthType.value,
      unexpectedAnswer: codes.unexpectedAnswer.value,
    },
    idempotencyKey: idempotencyKeyRule(model),
    pageSize,
    batchMaxCommands: view.batchMax,
    batchMethod: BATCH_METHOD,
    cursor: cursorMethods(model),
  };
  // Hovering `client.tasks.task.unpin` shows what the spec says of the method (issue 10); the client ships no spec,
  // so its docs carry no `@see`; a fact read from the other input still says which (D29).
  const docCtx: PrintContext = { resourceName: (n) => n, see: () => "", fromReference: (at) => onReferencePage(model, at) };
  // Each method's text once a run: the trees and the calls of the main entry and of its area all carry it.
  const docs = new Map<Method, string>();
  const docOf = (m: Method) => {
    let text = docs.get(m);
    if (text === undefined) docs.set(m, (text = memoized("client method doc", () => `${methodContext(model)}\0${nodeText(m)}`, () => methodDoc(m, docCtx, model, { see: false }))));
    return text;
  };
  const runtimeExports = exportedNames(opts.runtime["client/index.d.ts"] ?? "").filter((n) => !["is", "type CallResult", "default"].includes(n));
  const shape = clientShape(opts.runtime);
  // What `shape.d.ts` exports, re-exported by name from every entry.
  const shapeExports = declaredNames(shape.body).sort(ordinal);
  const main = entryFiles({ header, dir: "client", up: "./", typesEntry: packages.types, legacy: typedMethods(model, "legacy"), v3: typedMethods(model, "v3"), data, docOf, runtimeExports, shapeExports });
  const areaFiles = areas.flatMap((area) =>
    entryFiles({
      header,
      dir: `client/areas/${area.key}`,
      up: "../../",
      typesEntry: `${packages.types}/${area.key}`,
      legacy: area.legacy,
      v3: area.v3,
      data: areaData(data, area.legacy, area.v3),
      docOf,
      runtimeExports,
      shapeExports,
    }),
  );
  const exports: Record<string, unknown> = { ".": { types: "./index.d.ts", default: "./index.js" } };
  for (const a of areas) exports[`./${a.key}`] = { types: `./areas/${a.key}/index.d.ts`, default: `./areas/${a.key}/index.js` };
  // The throttle's shared counter (D17, D26): a subpath of its own that no main or area entry imports.
  exports["./redis"] = { types: "./runtime/client/redis.d.ts", default: "./runtime/client/redis.js" };
  exports["./package.json"] = "./package.json";
  const shapeDts = [
    `// ${header}`,
    // The shape's own imports: the types package by its configured name, the runtime where the package ships it.
    printImport("import type", shape.imports.get(`${DEFAULT_TYPES_PACKAGE}/common`) ?? [], `${packages.types}/common`),
    printImport("import type", shape.imports.get("./index.js") ?? [], "./runtime/client/index.js"),
    "",
    shape.body,
    "",
  ].join("\n");
  return [
    packageJsonFile(
      "client",
      { header, name: packages.client, version: opts.version, description: `Typed client of ${words(model.title)}.` },
      { exports, engines: { node: ">=20.19.0" }, dependencies: { [packages.types]: opts.version }, ...REDIS_PEER },
    ),
    { path: "client/README.md", contents: render(opts.templates, "client/README.md.hbs", view) },
    { path: "client/shape.d.ts", raw: true, contents: shapeDts },
    ...main.filter((f) => f.path !== "client/index.js"),
    { path: "client/index.js", template: "client/index.js.hbs", contents: render(opts.templates, "client/index.js.hbs", view) },
    ...areaFiles,
    ...runtimeFiles(opts.runtime, "client", header),
  ];
}

/** An entry's method data: the flags and cursors of its methods, the rest as the whole API's. */
function areaData(data: ClientData, legacy: Method[], v3: Method[]): ClientData {
  const only = (flags: ClientMethodFlags, methods: Method[]): ClientMethodFlags => {
    const names = new Set(methods.flatMap((m) => [m.name, ...m.aliases]));
    return {
      applicationContextOnly: flags.applicationContextOnly.filter((n) => names.has(n)),
      idempotencyKey: flags.idempotencyKey.filter((n) => names.has(n)),
      readOnly: flags.readOnly.filter((n) => names.has(n)),
    };
  };
  const legacyNames = new Set(legacy.map((m) => m.name));
  const cursor = Object.fromEntries(Object.entries(data.cursor).filter(([n]) => legacyNames.has(n)));
  return { ...data, legacy: only(data.legacy, legacy), v3: only(data.v3, v3), cursor };
}

/**
 * The files of one entry of the client (the main one in `client/`, an area's in `client/areas/<key>/`): its data
 * (`methods.js`), its typed surface (`index.d.ts`: a namespace tree per version and auth kind; `calls.d.ts`: the
 * calls by name) and its module (`index.js`; the main entry's comes from a template, which the caller renders).
 */
function entryFiles(e: {
  header: string;
  dir: string;
  /** The path from the entry's folder to `client/`. */
  up: string;
  typesEntry: string;
  legacy: Method[];
  v3: Method[];
  data: ClientData;
  docOf: (m: Method) => string;
  /** What the runtime's index exports, as an export list (`type X` for a type); less what the entry declares. */
  runtimeExports: string[];
  /** What `shape.d.ts` declares, re-exported by name. */
  shapeExports: string[];
}): GeneratedFile[] {
  const { header, up, shapeExports } = e;
  const runtime = `${up}runtime/client/index.js`;
  // One default export: a namespace import would cost the bundle a getter per member.
  const methodsJs = [
    `// ${header}`,
    "// What the client knows of each method, from the spec (ClientData of runtime/shared/data.d.ts).",
    `export default ${JSON.stringify(e.data)};`,
    "",
  ].join("\n");
  const methodsDts = [
    `// ${header}`,
    `import type { ClientData } from "${up}runtime/shared/data.js";`,
    "declare const data: ClientData;",
    "export default data;",
    "",
  ].join("\n");
  const appOnly = (m: Method) => m.applicationContextOnly;
  const never = () => false;
  const trees = [
    ["LegacyTree", buildTree(e.legacy, "LegacyMethods", never, e.docOf)],
    ["LegacyWebhookTree", buildTree(e.legacy, "LegacyMethods", appOnly, e.docOf)],
    ["V3Tree", buildTree(e.v3, "V3Methods", never, e.docOf)],
    ["V3WebhookTree", buildTree(e.v3, "V3Methods", appOnly, e.docOf)],
  ] as const;
  // `call("tasks.task.unpin", …)` resolves to a signature of its own, so hovering `call` shows the method's docs too
  // (TypeScript shows no JSDoc for a string-literal name). The generic signature (shape.d.ts `Caller`) comes after
  // them: a call with a wrong parameter is reported against it, and one that leaves out required parameters against
  // Caller's one-argument signature, which names the method and its parameters' type (runtime/client/shape.ts).
  // The types each signature names, imported from the types entry.
  const used = new Set<string>();
  const namedCalls = (name: string, methods: Method[], map: string, skip: (m: Method) => boolean) => {
    const members = methods
      .filter((m) => !skip(m))
      .flatMap((m) =>
        [m.name, ...m.aliases].map((n): TsMember => {
          const key = keyword(stringLiteral(n));
          const comment = e.docOf(m);
          // The method's own types, by the names its entry of the map gives them (`TasksTaskGetParams`, what a hover
          // shows), its `params` optional as `{} extends P` says (model/questions.ts paramsOptional): a plain
          // parameter, which TypeScript need not evaluate to pass over the signatures of other methods.
          const base = methodTypeBase(m);
          used.add(`${base}Params`).add(`${base}Result`);
          return {
            ...(comment ? { comment } : {}),
            key: "call",
            parameters: [
              { name: "method", type: key },
              { name: "params", optional: paramsOptional(m), type: reference(`${base}Params`) },
              { name: "options", optional: true, type: reference("CallOptions") },
            ],
            type: reference("Promise", [reference(`${base}Result`)]),
          };
        }),
      );
    const comment = `/** The calls by name of ${map}, one signature a method, each with the method's docs. */`;
    return printDeclaration({ kind: "interface", comment, head: `export interface ${name}`, members });
  };
  // Each method once: the calls any client may make, and those only an application may make (a webhook's client
  // type leaves the second out).
  const calls = [
    namedCalls("LegacyNamedCalls", e.legacy, "LegacyMethods", appOnly),
    namedCalls("LegacyApplicationCalls", e.legacy, "LegacyMethods", (m) => !m.applicationContextOnly),
    namedCalls("V3NamedCalls", e.v3, "V3Methods", appOnly),
    namedCalls("V3ApplicationCalls", e.v3, "V3Methods", (m) => !m.applicationContextOnly),
  ];
  const callsDts = [
    `// ${header}`,
    ...(used.size > 0 ? [printImport("import type", [...used].sort(ordinal), e.typesEntry)] : []),
    `import type { CallOptions } from "${runtime}";`,
    "",
    ...calls,
  ].join("\n");
  // Printed in prettier's layout (the fixed declarations as prettier printed them; the trees by ts/layout.ts), so
  // the formatter leaves this file alone (issue 10's speed).
  const callsNames = ["LegacyApplicationCalls", "LegacyNamedCalls", "V3ApplicationCalls", "V3NamedCalls"];
  const cursorNames = Object.keys(e.data.cursor);
  const surface: TsMember[] = [
    ["legacy", "LegacyMethods"],
    ["v3", "V3Methods"],
    ["legacyTree", "LegacyTree"],
    ["legacyWebhookTree", "LegacyWebhookTree"],
    ["v3Tree", "V3Tree"],
    ["v3WebhookTree", "V3WebhookTree"],
    ["legacyNamedCalls", "LegacyNamedCalls"],
    ["legacyApplicationCalls", "LegacyApplicationCalls"],
    ["v3NamedCalls", "V3NamedCalls"],
    ["v3ApplicationCalls", "V3ApplicationCalls"],
  ].map(([key, type]) => ({ key: key as string, type: reference(type as string) }));
  const indexDts = [
    `// ${header}`,
    printImport("import type", ["ErrorCode", "LegacyMethods", "V3Methods"], e.typesEntry),
    printImport("import type", ["ApiError", "ClientOptions", "TokenAuth", "WebhookAuth"], runtime),
    printImport("import type", ["AuthKind", "BatchResultOf", "ClientOf", "MethodFn", "Surface"], `${up}shape.js`),
    printImport("import type", callsNames, "./calls.js"),
    printImport("export type", callsNames, "./calls.js"),
    // The runtime and the shape by name, not `export *`: a name of theirs then wins over a resource of the same name in
    // the types package (`Tokens`, `Limits`), where two star exports would collide (TS2308).
    printImport("export", e.runtimeExports, runtime),
    // By name, not `export type *`: a name of the shape then wins over a resource of the same name in the types
    // package, which would otherwise make the two star exports collide (TS2308).
    printImport("export type", shapeExports, `${up}shape.js`),
    `export type * from ${stringLiteral(e.typesEntry)};`,
    "",
    "/** Legacy list methods that `all()` walks by the identifier cursor (`>ID`, `start = -1`); the others go by `start`. */",
    printDeclaration({ kind: "alias", head: "export type CursorMethod", type: cursorNames.length ? union(cursorNames.map((n) => keyword(stringLiteral(n)))) : keyword("never") }).trimEnd(),
    ...trees.map(([name, tree]) => printDeclaration({ kind: "interface", head: `export interface ${name}`, members: treeType(tree) }).trimEnd()),
    printDeclaration({ kind: "interface", comment: "/** What this entry's client knows: its methods, trees and calls by name. */", head: "export interface Methods extends Surface", members: surface }).trimEnd(),
    "/** A client of this entry's methods for an auth kind. */",
    "export type Client<K extends AuthKind> = ClientOf<K, Methods>;",
    "/** What `batch` resolves to: each command's outcome, typed by its method. */",
    "export type BatchResult<C> = BatchResultOf<LegacyMethods, C>;",
    "/** A type guard per error code. */",
    "export declare const is: { readonly [C in ErrorCode]: (error: unknown) => error is ApiError & { readonly code: C } };",
    "export declare function createClient(options: ClientOptions<WebhookAuth>): Client<\"webhook\">;",
    "export declare function createClient(options: ClientOptions<TokenAuth>): Client<\"application\">;",
    `export { ApiError as default } from "${runtime}";`,
    "",
  ].join("\n");
  const indexJs = [
    `// ${header}`,
    'import data from "./methods.js";',
    `import { createClientWith } from "${runtime}";`,
    "",
    `export * from "${runtime}";`,
    `export { ApiError as default } from "${runtime}";`,
    "",
    "/** A client of this area's methods; see the package's README.md. */",
    "export function createClient(options) {",
    "  return createClientWith(options, data);",
    "}",
    "",
  ].join("\n");
  return [
    { path: `${e.dir}/index.d.ts`, raw: true, contents: indexDts },
    { path: `${e.dir}/calls.d.ts`, raw: true, contents: callsDts },
    { path: `${e.dir}/index.js`, raw: true, contents: indexJs },
    { path: `${e.dir}/methods.js`, raw: true, contents: methodsJs },
    { path: `${e.dir}/methods.d.ts`, raw: true, contents: methodsDts },
  ];
}
