import type { Method, Model, Version } from "../../model/types.js";
import type { GeneratedFile } from "../files.js";
import { packageJsonFile } from "../files.js";
import { ordinal, propertyKey, stringLiteral } from "../names.js";
import { type TsMember, type TsType, keyword, printDeclaration, printImport, reference, union } from "../ts/layout.js";
import { type Templates, render } from "../templates.js";
import type { PrintContext } from "../ts/printer.js";
import { isListMethod, methodDoc, typedMethods } from "../types/index.js";
import type { ClientData, ClientMethodFlags, Cursor } from "../../../templates/runtime/shared/data.js";
import { BATCH_MAX_COMMANDS, BATCH_METHOD, idempotencyKeyRule, runtimeFiles } from "../runtime.js";
import type { ClientView } from "../views.js";

/**
 * Emits `client/`: the runtime and README from templates, the method table (`methods.js`) and the typed surface
 * (`index.d.ts`: a namespace tree per version and auth kind) from the model.
 */

/** The client's declarations that do not depend on the spec, in prettier's layout; the trees come between them. */
const CLIENT_TYPES_HEAD = `/** How a client authenticates: a webhook cannot call application-context methods. */
export type AuthKind = "webhook" | "application";
type Args<P> = {} extends P ? [params?: P, options?: CallOptions] : [params: P, options?: CallOptions];
/** A method of the namespace tree: resolves to its \`result\`; \`withResponse\` also gives \`time\` and the response. */
export interface MethodFn<S extends { params: unknown; result: unknown }> {
  (...args: Args<S["params"]>): Promise<S["result"]>;
  withResponse(...args: Args<S["params"]>): Promise<CallResult<S["result"]>>;
}
/** Names of the methods a client of this auth kind may call. */
export type AllowedName<M, K extends AuthKind> = {
  [N in keyof M]: K extends "webhook" ? (M[N] extends { applicationContextOnly: true } ? never : N) : N;
}[keyof M] &
  string;
/** The methods a client of this auth kind may call. */
export type Allowed<M, K extends AuthKind> = Pick<M, AllowedName<M, K>>;
type ParamsOf<M, N> = N extends keyof M ? (M[N] extends { params: infer P } ? P : never) : never;
type ResultOf<M, N> = N extends keyof M ? (M[N] extends { result: infer R } ? R : never) : never;
export interface Caller<M> {
  call<N extends keyof M & string>(method: N, ...args: Args<ParamsOf<M, N>>): Promise<ResultOf<M, N>>;
  request<N extends keyof M & string>(method: N, ...args: Args<ParamsOf<M, N>>): Promise<CallResult<ResultOf<M, N>>>;
}
type ListNames<M> = { [N in keyof M]: M[N] extends { list: true } ? N : never }[keyof M] & string;
type ItemOf<R> = R extends ReadonlyArray<infer I> ? I : never;
export interface PageOptions extends CallOptions {
  /** Stop after this many pages. Default 100. */
  maxPages?: number;
}
export interface BatchOptions extends CallOptions {
  /** Stop at the first failing command: the rest of its request and the requests after it do not run. */
  halt?: boolean;
  /** Commands per request; default and most 50, the platform's limit. Any number of commands may be given. */
  maxCommands?: number;
}
/** One command of a legacy batch: \`[method, params]\`. */
export type BatchCommand<M> = {
  [N in keyof M & string]: {} extends ParamsOf<M, N> ? readonly [N, ParamsOf<M, N>?] : readonly [N, ParamsOf<M, N>];
}[keyof M & string];
type CommandResult<C> = C extends readonly [infer N, ...unknown[]] ? ResultOf<LegacyMethods, N> : never;
/** A command's outcome: \`ok\` tells a result from an error. */
export type CommandOutcome<R> = { ok: true; result: R } | { ok: false; error: ApiError };
export interface BatchResult<C> {
  /** Each command that ran (a halt leaves the rest out), typed per command. */
  outcomes: { [K in keyof C]?: CommandOutcome<CommandResult<C[K]>> };
  results: { [K in keyof C]?: CommandResult<C[K]> };
  errors: { [K in keyof C]?: ApiError };
  /** The last request's \`time\`; \`times\` has each request's (one per 50 commands). */
  time: Time;
  times: Time[];
  raw: unknown[];
}`;

const CLIENT_TYPES_TAIL = `export type Client<K extends AuthKind> = (K extends "webhook" ? unknown : LegacyApplicationCalls) &
  LegacyNamedCalls &
  Caller<Allowed<LegacyMethods, K>> &
  (K extends "webhook" ? LegacyWebhookTree : LegacyTree) & {
    /** Every record of a legacy list method, page by page (\`start\`). */
    paginate<N extends ListNames<Allowed<LegacyMethods, K>>>(
      method: N,
      params?: ParamsOf<LegacyMethods, N>,
      options?: PageOptions,
    ): AsyncIterable<ItemOf<ResultOf<LegacyMethods, N>>>;
    /**
     * Every record of a legacy list method, a page at a time: by the identifier cursor for a \`CursorMethod\`, else
     * by \`start\` with \`concurrency\` requests in flight.
     */
    all<N extends ListNames<Allowed<LegacyMethods, K>>>(
      method: N,
      params?: ParamsOf<LegacyMethods, N>,
      options?: AllOptions,
    ): AsyncIterable<Array<ItemOf<ResultOf<LegacyMethods, N>>>>;
    /** Legacy commands, any number, 50 to a request, typed per command. */
    batch<const C extends Record<string, BatchCommand<Allowed<LegacyMethods, K>>>>(
      commands: C,
      options?: BatchOptions,
    ): Promise<BatchResult<C>>;
    /** The request-rate bucket and each method's execution-time state. */
    limits(): Limits;
    /** The 3.0 methods (\`/rest/api/\`). */
    v3: (K extends "webhook" ? unknown : V3ApplicationCalls) &
      V3NamedCalls &
      Caller<Allowed<V3Methods, K>> &
      (K extends "webhook" ? V3WebhookTree : V3Tree);
  };
/** A type guard per error code. */
export declare const is: { readonly [C in ErrorCode]: (error: unknown) => error is ApiError & { readonly code: C } };
export declare function createClient(options: ClientOptions<WebhookAuth>): Client<"webhook">;
export declare function createClient(options: ClientOptions<TokenAuth>): Client<"application">;
export { ApiError as default } from "./runtime/client/index.js";
`;

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

/** Field names whose relative values are links to make absolute: the file table's fields and fields described as links. */
export function linkFields(model: Model): string[] {
  const names = new Set<string>();
  for (const row of model.fileRetrieval.rows) for (const m of row.field.matchAll(/`([A-Za-z_][\w]*)`/g)) names.add(m[1] ?? "");
  // A link is a string: a member typed as an object or a resource (`creator`, `responsible`) is never one, whatever
  // its description says (issue 9: `{creator: "/evil"}` was made absolute).
  const notLinks = new Set<string>();
  const visit = (fields: Array<{ name: string; description: string; type: { kind: string; type?: string } }>) => {
    for (const f of fields) {
      const stringLike = f.type.kind === "unknown" || (f.type.kind === "primitive" && f.type.type === "string");
      if (!stringLike) notLinks.add(f.name);
      else if (/\b(link|URL|download)\b/i.test(f.description)) names.add(f.name);
    }
  };
  for (const r of model.resources) if (r.type.kind === "object") visit(r.type.members);
  for (const m of model.methods) {
    const t = m.result?.type;
    if (t?.kind === "object") visit(t.members);
    if (t?.kind === "union") for (const o of t.options) if (o.kind === "object") visit(o.members);
  }
  // Ids, not links: the file table names them as what to pass on to another method.
  names.delete("UF_TASK_WEBDAV_FILES");
  names.delete("OBJECT_ID");
  names.delete("FILES");
  // Not link members: `n` is a prefix of file ids, `result` the envelope member whose values are the URLs
  // ("URLs in `result`"), `assetMarkdown` the spec says carries no link.
  names.delete("n");
  names.delete("result");
  names.delete("assetMarkdown");
  for (const n of notLinks) names.delete(n);
  return [...names].filter(Boolean).sort(ordinal);
}

/**
 * Legacy list methods that `all()` walks with the platform's identifier cursor (`>ID` in the filter, the identifier
 * ascending, `start = -1`; ../shared/platform-docs/settings/performance/huge-data.md): a list method with a filter
 * object and an order object among its parameters, whose records have an `ID` (or `id`) member. The spec does not say
 * that a method's filter takes `>`; a method whose filter does not is walked with `start` by passing `cursor: false`.
 */
export function cursorMethods(model: Model): Record<string, Cursor> {
  const out: Record<string, Cursor> = {};
  for (const m of typedMethods(model, "legacy")) {
    if (!isListMethod(model, m)) continue;
    const filter = m.params.find((p) => /^filter$/i.test(p.name) && p.type.kind === "object");
    const order = m.params.find((p) => /^order$/i.test(p.name) && p.type.kind === "object");
    const items = m.result?.type.kind === "array" ? m.result.type.items : null;
    const resource = items?.kind === "ref" ? model.resources.find((r) => r.name === items.resource)?.type : items;
    const id = resource?.kind === "object" ? resource.members.find((f) => f.name === "ID" || f.name === "id")?.name : undefined;
    if (filter && order && id) out[m.name] = [filter.name, order.name, id];
  }
  return out;
}

function retryCodes(model: Model): string[] {
  return model.errors.catalogue
    .filter((e) => e.kind === "system" && e.cause && /\bretry\b|lifted automatically|rate exceeded/i.test(e.cause))
    .map((e) => e.code);
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
  const pageSize = model.limits.table.find((l) => /^list page size$/i.test(l.name))?.max ?? 50;
  const codeOf = (re: RegExp) => model.errors.catalogue.find((e) => e.cause && re.test(e.cause))?.code;
  const view: ClientView = {
    header,
    name: packages.client,
    title: model.title,
    typesPackage: packages.types,
    retryCodes: retryCodes(model),
    linkFields: linkFields(model),
    pageSize,
    // The spec does not show the maximum batch length: the documentation's, and the server decides.
    batchMax: BATCH_MAX_COMMANDS,
  };
  const data: ClientData = {
    legacy: flagged(model, "legacy"),
    v3: flagged(model, "v3"),
    linkFields: view.linkFields,
    retry: {
      codes: view.retryCodes,
      expiredToken: codeOf(/refresh it/) ?? "expired_token",
      operationTimeLimit: model.errors.catalogue.find((e) => /operation time limit/i.test(e.text ?? ""))?.code ?? "OPERATION_TIME_LIMIT",
      queryLimit: model.errors.catalogue.find((e) => /request rate exceeded/i.test(e.cause ?? ""))?.code ?? "QUERY_LIMIT_EXCEEDED",
      wrongAuthType: codeOf(/needs application context/) ?? "WRONG_AUTH_TYPE",
      unexpectedAnswer: model.errors.catalogue.find((e) => /unexpected response/i.test(e.text ?? ""))?.code ?? "ERROR_UNEXPECTED_ANSWER",
    },
    idempotencyKey: idempotencyKeyRule(model),
    pageSize,
    batchMaxCommands: view.batchMax,
    batchMethod: BATCH_METHOD,
    cursor: cursorMethods(model),
  };
  // One default export: a namespace import would cost the bundle a getter per member.
  const methodsJs = [
    `// ${header}`,
    "// What the client knows of each method, from the spec (ClientData of runtime/shared/data.d.ts).",
    `export default ${JSON.stringify(data)};`,
    "",
  ].join("\n");
  const methodsDts = [
    `// ${header}`,
    'import type { ClientData } from "./runtime/shared/data.js";',
    "declare const data: ClientData;",
    "export default data;",
    "",
  ].join("\n");
  const legacy = typedMethods(model, "legacy");
  const v3 = typedMethods(model, "v3");
  const appOnly = (m: Method) => m.applicationContextOnly;
  const never = () => false;
  // Hovering `client.tasks.task.unpin` shows what the spec says of the method (issue 10); the client ships no spec,
  // so its docs carry no `@see`.
  const docCtx: PrintContext = { resourceName: (n) => n, see: () => "" };
  const docOf = (m: Method) => methodDoc(m, docCtx, model, { see: false });
  const trees = [
    ["LegacyTree", buildTree(legacy, "LegacyMethods", never, docOf)],
    ["LegacyWebhookTree", buildTree(legacy, "LegacyMethods", appOnly, docOf)],
    ["V3Tree", buildTree(v3, "V3Methods", never, docOf)],
    ["V3WebhookTree", buildTree(v3, "V3Methods", appOnly, docOf)],
  ] as const;
  // `call("tasks.task.unpin", …)` resolves to a signature of its own, so hovering `call` shows the method's docs too
  // (TypeScript shows no JSDoc for a string-literal name). The generic signature stays last: a wrong call is checked
  // against it, and its error reads as before.
  const namedCalls = (name: string, methods: Method[], map: string, skip: (m: Method) => boolean) => {
    const members = methods
      .filter((m) => !skip(m))
      .flatMap((m) =>
        [m.name, ...m.aliases].map((n): TsMember => {
          const key = keyword(stringLiteral(n));
          const comment = docOf(m);
          return {
            ...(comment ? { comment } : {}),
            key: "call",
            parameters: [
              { name: "method", type: key },
              { name: "args", rest: true, type: reference("In", [reference(map), key]) },
            ],
            type: reference("Out", [reference(map), key]),
          };
        }),
      );
    const comment = `/** The calls by name of ${map}, one signature a method, each with the method's docs. */`;
    return printDeclaration({ kind: "interface", comment, head: `export interface ${name}`, members });
  };
  const callsDts = [
    `// ${header}`,
    printImport("import type", ["LegacyMethods", "V3Methods"], packages.types),
    'import type { CallOptions } from "./runtime/client/index.js";',
    "",
    "type Args<P> = {} extends P ? [params?: P, options?: CallOptions] : [params: P, options?: CallOptions];",
    "type In<M, N extends keyof M> = M[N] extends { params: infer P } ? Args<P> : never;",
    "type Out<M, N extends keyof M> = Promise<M[N] extends { result: infer R } ? R : never>;",
    "",
    // Each method once: the calls any client may make, and those only an application may make (a webhook's client
    // type leaves the second out).
    namedCalls("LegacyNamedCalls", legacy, "LegacyMethods", appOnly),
    namedCalls("LegacyApplicationCalls", legacy, "LegacyMethods", (m) => !m.applicationContextOnly),
    namedCalls("V3NamedCalls", v3, "V3Methods", appOnly),
    namedCalls("V3ApplicationCalls", v3, "V3Methods", (m) => !m.applicationContextOnly),
  ].join("\n");
  // Printed in prettier's layout (the fixed declarations as prettier printed them; the trees by ts/layout.ts), so
  // the formatter leaves this file alone (issue 10's speed).
  const callsNames = ["LegacyApplicationCalls", "LegacyNamedCalls", "V3ApplicationCalls", "V3NamedCalls"];
  const indexDts = [
    `// ${header}`,
    printImport("import type", ["ErrorCode", "LegacyMethods", "Time", "V3Methods"], packages.types),
    printImport("import type", ["AllOptions", "ApiError", "CallOptions", "CallResult as RuntimeCallResult", "ClientOptions", "Limits", "TokenAuth", "WebhookAuth"], "./runtime/client/index.js"),
    printImport("import type", callsNames, "./calls.js"),
    printImport("export type", callsNames, "./calls.js"),
    'export * from "./runtime/client/index.js";',
    "/** What a call resolves to with `withResponse`: the result, the envelope's `time`, the response. */",
    "export type CallResult<R> = RuntimeCallResult<R, Time>;",
    `export type * from ${stringLiteral(packages.types)};`,
    "",
    CLIENT_TYPES_HEAD,
    "/** Legacy list methods that `all()` walks by the identifier cursor (`>ID`, `start = -1`); the others go by `start`. */",
    printDeclaration({ kind: "alias", head: "export type CursorMethod", type: Object.keys(data.cursor).length ? union(Object.keys(data.cursor).map((n) => keyword(stringLiteral(n)))) : keyword("never") }).trimEnd(),
    ...trees.map(([name, tree]) => printDeclaration({ kind: "interface", head: `export interface ${name}`, members: treeType(tree) }).trimEnd()),
    CLIENT_TYPES_TAIL,
  ].join("\n");
  return [
    packageJsonFile(
      "client",
      { header, name: packages.client, version: opts.version, description: `Typed client of ${model.title}.` },
      { engines: { node: ">=20.19.0" }, dependencies: { [packages.types]: opts.version } },
    ),
    { path: "client/README.md", contents: render(opts.templates, "client/README.md.hbs", view) },
    { path: "client/index.d.ts", raw: true, contents: indexDts },
    { path: "client/calls.d.ts", raw: true, contents: callsDts },
    { path: "client/index.js", template: "client/index.js.hbs", contents: render(opts.templates, "client/index.js.hbs", view) },
    { path: "client/methods.js", raw: true, contents: methodsJs },
    { path: "client/methods.d.ts", raw: true, contents: methodsDts },
    ...runtimeFiles(opts.runtime, "client", header),
  ];
}

