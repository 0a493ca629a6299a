import semver from "semver";
import type { Field, Method, Model, TypeRef, Version } from "../../model/view.js";
import { type GeneratedFile, REDIS_PEER, packageJsonFile } from "../files.js";
import { ordinal, propertyKey, stringLiteral } from "../names.js";
import { V3_ERROR_PREFIXES, type V3ErrorPrefix } from "../../model/v3-prefix.js";
import { PRINT_WIDTH, type TsMember, keyword, printDeclaration, printImport, reference } from "../ts/layout.js";
import { type Templates, render } from "../templates.js";
import { blockCommentText } from "../../util/comment.js";
import { atLeastOneOf, builtInMethods, isListMethod, pageSizeOf, skeletonMethodsOf, typedMethods } from "../../model/questions.js";
import type { ErrorLink, MethodInfo, RuntimeType, ServerData } from "../../../runtime/shared/data.js";
import { BATCH_MAX_COMMANDS, BATCH_METHOD, idempotencyKeyRule, runtimeFiles } from "../runtime.js";
import { unresolvedLeft } from "../../model/map-type.js";
import { words } from "../prose.js";

/**
 * Emits `server/`: the router runtime and README from templates, the rules data the router enforces
 * (`methods.js`: per method scopes, access, parameter types, constraints; codes, texts and statuses of the spec),
 * the 3.0 OpenAPI document it serves, the typed handler interfaces (`index.d.ts`), and the user-owned handler
 * skeleton, created only when absent.
 */

/** TypeRef → the compact form the router validates against; referenced resources go to `shapes`. */
function runtimeType(t: TypeRef, model: Model, shapes: Map<string, RuntimeType>): RuntimeType {
  switch (t.kind) {
    case "primitive":
      return { kind: t.type, ...(t.enum && !t.openEnum ? { enum: t.enum } : {}) };
    case "object":
      return {
        kind: "object",
        members: t.members.map((m) => ({ name: m.name, required: m.required, type: fieldType(m, model, shapes) })),
        ...(t.additional ? { additional: runtimeType(t.additional, model, shapes) } : {}),
      };
    case "array":
      return { kind: "array", items: runtimeType(t.items, model, shapes) };
    case "union":
      return { kind: "union", options: t.options.map((o) => runtimeType(o, model, shapes)) };
    case "ref": {
      if (!shapes.has(t.resource)) {
        shapes.set(t.resource, { kind: "unknown" });
        const r = model.resources.find((x) => x.name === t.resource);
        shapes.set(t.resource, r ? runtimeType(r.type, model, shapes) : { kind: "unknown" });
      }
      return { kind: "ref", name: t.resource };
    }
    case "null":
      return { kind: "unknown", nullable: true };
    case "unknown":
      return { kind: "unknown" };
    case "unresolved":
      return unresolvedLeft(t);
  }
}

function fieldType(f: Field, model: Model, shapes: Map<string, RuntimeType>): RuntimeType {
  const t = runtimeType(f.type, model, shapes);
  return f.nullable ? { ...t, nullable: true } : t;
}

function methodInfo(m: Method, model: Model, shapes: Map<string, RuntimeType>): MethodInfo {
  return {
    name: m.name,
    described: m.described,
    scopes: m.scopes,
    applicationContextOnly: m.applicationContextOnly,
    adminOnly: m.access?.who === "administrator",
    idempotencyKey: m.idempotencyKey,
    params: m.params.map((p) => ({ name: p.name, required: p.required, type: fieldType(p, model, shapes), ...(p.schemes?.length ? { schemes: p.schemes } : {}) })),
    atLeastOne: atLeastOneOf(m),
    callForms: m.constraints.flatMap((c) => (c.kind === "call-forms" ? c.forms : [])),
    ...optional("requiredUnless", m.constraints.flatMap((c) => (c.kind === "required-unless" ? c.params.map((param) => ({ param, unless: c.unless })) : []))),
    ...optional("errors", errorLinks(m, model)),
    ...(m.httpMethods.includes("GET") ? { get: true as const } : {}),
  };
}

/** A member only where it has entries: most methods have none, and the data ships in every server. */
function optional<K extends string, T>(key: K, list: T[]): Partial<Record<K, T[]>> {
  return list.length > 0 ? ({ [key]: list } as Record<K, T[]>) : {};
}

/**
 * The errors the spec links to a parameter's failure (read/triggers.ts), as the router answers them. The status is
 * the error's own; where the spec offers several ("HTTP 400 or 403"), a failure of the request's parameters takes
 * 400 if offered, else the first; where it offers none, the catalogue's status of `ERROR_ARGUMENT`.
 */
function errorLinks(m: Method, model: Model): ErrorLink[] {
  const argumentStatus = model.errors.catalogue.find((e) => e.code === "ERROR_ARGUMENT")?.status ?? 400;
  return m.errors.flatMap((e) => {
    if (!e.trigger || e.code === null) return [];
    const status = e.status ?? (e.statuses.includes(400) ? 400 : e.statuses[0]) ?? argumentStatus;
    // The first error the spec gives for a failure answers it.
    return [{ argument: e.trigger.parameter, failure: e.trigger.failure, code: e.code, status, text: words(e.text) }];
  }).filter((l, i, all) => all.findIndex((o) => o.argument === l.argument && o.failure === l.failure) === i);
}

function rules(model: Model, prefix: V3ErrorPrefix): Omit<ServerData, "legacy" | "v3" | "shapes" | "scopeMap" | "webhookUserId"> {
  // The protocol's 3.0 codes, under the prefix the run chose (D11).
  const v3 = (name: string) => `${V3_ERROR_PREFIXES[prefix]}${name}`;
  const methodError = (code: string) => model.methods.flatMap((m) => m.errors).find((e) => e.code === code && e.text);
  // The administrator rule's answer (model.platform.answers): the error a method lists for a caller who is not an
  // administrator, else any ACCESS_DENIED a method quotes.
  const notAdmin = model.platform.answers.notAdministrator.value;
  const accessDenied =
    (notAdmin && model.methods.find((m) => m.version === notAdmin.version && m.name === notAdmin.method)?.errors.find((e) => e.code === notAdmin.code && e.text === notAdmin.text)) ??
    methodError("ACCESS_DENIED");
  const scopeTexts = model.platform.answers.insufficientScope.value;
  const errorTexts: Record<string, string> = {};
  for (const e of model.errors.catalogue) if (e.text && !(e.code in errorTexts) && e.kind !== "auth") errorTexts[e.code] = words(e.text);
  // Texts are what the spec quotes (a Text column, a quoted string), never a When or Cause column: a code whose text
  // the spec does not quote answers with an empty description (issue 14: `invalid_token` answered "token not
  // accepted", the authorization table's When cell).
  const authStatus: Record<string, number> = {};
  for (const e of model.errors.catalogue) if (e.kind === "auth" && e.status !== null) authStatus[e.code] = e.status;
  const altStatus = (code: string) => model.errors.catalogue.find((e) => e.code === code && e.altStatus !== null)?.altStatus ?? null;
  const statusOrNull = (code: string): number | null => model.errors.catalogue.find((e) => e.code === code && e.status !== null)?.status ?? null;
  const status = (code: string, fallback: number): number => statusOrNull(code) ?? fallback;
  return {
    codes: {
      methodNotFound: "ERROR_METHOD_NOT_FOUND",
      httpsRequired: "INVALID_REQUEST",
      noAuth: "NO_AUTH_FOUND",
      invalidCredentials: "INVALID_CREDENTIALS",
      wrongAuthType: "WRONG_AUTH_TYPE",
      insufficientScope: "insufficient_scope",
      v3InsufficientScope: v3("INSUFFICIENTSCOPEEXCEPTION"),
      accessDenied: "ACCESS_DENIED",
      argument: "ERROR_ARGUMENT",
      v3Validation: v3("VALIDATION_REQUESTVALIDATIONEXCEPTION"),
      invalidJson: v3("INVALIDJSONEXCEPTION"),
      invalidKey: v3("INVALIDIDEMPOTENCYKEYEXCEPTION"),
      keyReused: v3("IDEMPOTENCYKEYREUSEDEXCEPTION"),
      queryLimit: "QUERY_LIMIT_EXCEEDED",
      operationTimeLimit: "OPERATION_TIME_LIMIT",
      internal: "INTERNAL_SERVER_ERROR",
      batchMethodNotAllowed: "ERROR_BATCH_METHOD_NOT_ALLOWED",
      batchLengthExceeded: "ERROR_BATCH_LENGTH_EXCEEDED",
      // Not the platform's: the spec names no error for a verb, so the generator documents its own (D32).
      verbNotAllowed: "ERROR_HTTP_METHOD_NOT_ALLOWED",
    },
    status: {
      // Not in the catalogue: the status the methods give it ("`ERROR_ARGUMENT` (HTTP 400; …)").
      argument: statusOrNull("ERROR_ARGUMENT") ?? model.methods.flatMap((m) => m.errors).find((e) => e.code === "ERROR_ARGUMENT" && e.status !== null)?.status ?? 400,
      methodNotFound: status("ERROR_METHOD_NOT_FOUND", 404),
      httpsRequired: status("INVALID_REQUEST", 401),
      noAuth: status("NO_AUTH_FOUND", 401),
      wrongAuthType: status("WRONG_AUTH_TYPE", 403),
      insufficientScope: status("insufficient_scope", 401),
      v3InsufficientScope: status(v3("INSUFFICIENTSCOPEEXCEPTION"), 403),
      invalidJson: statusOrNull(v3("INVALIDJSONEXCEPTION")),
      invalidKey: status(v3("INVALIDIDEMPOTENCYKEYEXCEPTION"), 400),
      keyReused: status(v3("IDEMPOTENCYKEYREUSEDEXCEPTION"), 422),
      queryLimit: status("QUERY_LIMIT_EXCEEDED", 503),
      operationTimeLimit: status("OPERATION_TIME_LIMIT", 429),
      internal: status("INTERNAL_SERVER_ERROR", 500),
      // The current table gives these no status; the older one does (the spec's line on older statuses).
      batchMethodNotAllowed: statusOrNull("ERROR_BATCH_METHOD_NOT_ALLOWED") ?? altStatus("ERROR_BATCH_METHOD_NOT_ALLOWED") ?? 405,
      batchLengthExceeded: statusOrNull("ERROR_BATCH_LENGTH_EXCEEDED") ?? altStatus("ERROR_BATCH_LENGTH_EXCEEDED") ?? 400,
      verbNotAllowed: 405,
    },
    defaults: { v3ValidationStatus: statusOrNull(v3("VALIDATION_REQUESTVALIDATIONEXCEPTION")) ?? 400 },
    errorTexts,
    authStatus,
    wrongAuthTypeText: words(methodError("WRONG_AUTH_TYPE")?.text) ?? "",
    insufficientScopeText: { webhook: scopeTexts?.webhook ?? "", application: scopeTexts?.application ?? "" },
    accessDenied: { status: accessDenied?.status ?? 403, text: words(accessDenied?.text) ?? "" },
    idempotencyKey: idempotencyKeyRule(model),
    idempotencyTtlMs: model.platform.idempotency.retentionHours.value * 3_600_000,
    // The batch is the protocol's, not a method of the model: it takes the verbs the legacy methods take.
    batch: { method: BATCH_METHOD, maxCommands: BATCH_MAX_COMMANDS, get: model.methods.some((m) => m.version === "legacy" && m.httpMethods.includes("GET")) },
  };
}

/**
 * What a webhook's `userId` is in the credentials: the path's text while the package's major version is 0, as it
 * always was; the client's `number | string` from 1.0.0 on. A type that changes under a hook waits for a major
 * version (decisions.md D3), and the generator cannot release one on its own: the model's next breaking change does.
 */
export function webhookUserIdOf(packageVersion: string): "string" | "number" {
  return semver.major(packageVersion) >= 1 ? "number" : "string";
}

function methodsModule(model: Model, header: string, prefix: V3ErrorPrefix, packageVersion: string): { js: string; dts: string } {
  const shapes = new Map<string, RuntimeType>();
  const table = (version: Version) => {
    const out: Record<string, MethodInfo> = {};
    for (const m of typedMethods(model, version)) {
      const info = methodInfo(m, model, shapes);
      for (const name of [m.name, ...m.aliases]) out[name] = info;
    }
    return out;
  };
  const legacy = table("legacy");
  const v3 = table("v3");
  const scopeMap = Object.fromEntries(
    (["legacy", "v3"] as const).map((v) => [v, Object.fromEntries(typedMethods(model, v).filter((m) => m.described).map((m) => [m.name, m.scopes]))]),
  );
  const sortedShapes = Object.fromEntries([...shapes.entries()].sort(([a], [b]) => ordinal(a, b)));
  const r = rules(model, prefix);
  const data: ServerData = { legacy, v3, shapes: sortedShapes, scopeMap: scopeMap as ServerData["scopeMap"], ...r, webhookUserId: webhookUserIdOf(packageVersion) };
  return {
    js: [`// ${header}`, "// What the router enforces, from the spec (ServerData of runtime/shared/data.d.ts).", `export default ${JSON.stringify(data)};`, ""].join("\n"),
    dts: [`// ${header}`, 'import type { ServerData } from "./runtime/shared/data.js";', "declare const data: ServerData;", "export default data;", ""].join("\n"),
  };
}

/** `index.d.ts` of the server, printed in prettier's layout (ts/layout.ts), so the formatter leaves it alone. */
function handlersDts(model: Model, header: string, typesPackage: string, removed: { legacy: string[]; v3: string[] }, packageVersion: string): string {
  const built = builtInMethods(model);
  const skip = new Set([...built.documentation, ...built.scopeList]);
  const members = (version: Version, map: string): TsMember[] =>
    typedMethods(model, version)
      .filter((m) => !skip.has(m.name))
      .map((m) => ({
        comment: `/** \`${m.name}\`${m.described ? "" : ": named in the spec without parameters; optional"}${m.description ? `. ${blockCommentText(words(m.description), { oneLine: true })}` : ""} */`,
        key: propertyKey(m.name),
        optional: !m.described,
        type: reference("Handler", [{ kind: "indexed", object: reference(map), index: keyword(stringLiteral(m.name)) }]),
      }))
      .concat(
        // Removed since the last major version: still accepted, so that the user's skeleton compiles until the next one.
        // Its parameters are `any` on purpose: the handler was written against types the package no longer has, and
        // any narrower type would break the body that reads them (`params.CALL_ID` as a string).
        removed[version].map((name) => ({
          comment: `/** @deprecated The spec no longer has \`${name}\` (removed in ${breakingReleaseOf(packageVersion)}); the router ignores this handler. Delete it. */`,
          key: propertyKey(name),
          optional: true,
          type: reference("Handler", [keyword("{ params: any; result: unknown }")]),
        })),
      );
  const handlers = (comment: string, name: string, version: Version, map: string) =>
    printDeclaration({ kind: "interface", comment, head: `export interface ${name}`, members: members(version, map) });
  return [
    `// ${header}`,
    printImport("import type", ["AuthErrorCode", "LegacyMethods", "V3Methods"], typesPackage),
    printImport("import type", ["ApplicationCaller", "AuthFailure", "Caller", "Credentials as RuntimeCredentials", "HandlerContext", "HandlerOptions as RuntimeHandlerOptions", "MockHandler", "MockOptions", "Page"], "./runtime/server/index.js"),
    'export * from "./runtime/server/index.js";',
    ...(webhookUserIdOf(packageVersion) === "number"
      ? ["/** A webhook's user id as the client sends it (`auth.userId`): the number of a decimal path segment, else its text. */", "export type WebhookUserId = number | string;"]
      : [
          "/**",
          " * A webhook's user id: the path's segment as text while this package's major version is 0. From 1.0.0 on it is",
          " * the client's `number | string` (the number of a decimal segment); until then compare with `String(…)` or",
          " * `Number(…)`.",
          " */",
          "export type WebhookUserId = string;",
        ]),
    "/** The request's credentials: a webhook's user id and code, or an application's token. */",
    "export type Credentials = RuntimeCredentials<WebhookUserId>;",
    "/** The router's options; `authenticate` fails with a code of the authorization failures table. */",
    "export type HandlerOptions = RuntimeHandlerOptions<AuthErrorCode, WebhookUserId>;",
    "type Answer<C> = C | AuthFailure<AuthErrorCode> | null | undefined;",
    "/** `authenticate` by the credentials' kind, with the codes of the authorization failures table: a token must give its application. */",
    "export declare function byCredentials(hooks: {",
    '  webhook(credentials: Extract<Credentials, { kind: "webhook" }>): Answer<Caller> | Promise<Answer<Caller>>;',
    "  token(",
    '    credentials: Extract<Credentials, { kind: "token" }>,',
    "  ): Answer<ApplicationCaller> | Promise<Answer<ApplicationCaller>>;",
    '}): HandlerOptions["authenticate"];',
    `export type * from ${stringLiteral(typesPackage)};`,
    "",
    "/** What a handler answers: its result; a legacy list method may answer a `Page` of its records (`page`, `pageOf`). */",
    "export type HandlerResult<S extends { result: unknown }> = S extends { list: true }",
    '  ? S["result"] | Page<S["result"] extends readonly (infer I)[] ? I : unknown>',
    '  : S["result"];',
    "",
    "/** A method's implementation: its typed parameters in, its typed result out. */",
    "export type Handler<S extends { params: unknown; result: unknown }> = (",
    '  params: S["params"],',
    "  context: HandlerContext,",
    ") => HandlerResult<S> | Promise<HandlerResult<S>>;",
    "",
    handlers("/** One function per legacy method. */", "LegacyHandlers", "legacy", "LegacyMethods"),
    handlers(`/** One function per 3.0 method; ${[...skip].map((n) => `\`${n}\``).join(", ")} are answered by the router. */`, "V3Handlers", "v3", "V3Methods"),
    "/** The router: a web-standard handler that enforces the spec's rules and calls yours. */",
    "export declare function createHandler(",
    "  handlers: { legacy: LegacyHandlers; v3: V3Handlers },",
    "  options: HandlerOptions,",
    "): (request: Request) => Promise<Response>;",
    "/** The mock: the router with a default handler for every described method; no handler code (README.md). */",
    "export declare function createMock(options?: MockOptions): MockHandler;",
    "",
  ].join("\n");
}


/** The release that began `version`'s line of compatible ones: `2.0.0` for 2.3.1, and `0.4.0` for 0.4.2 (D22). */
function breakingReleaseOf(version: string): string {
  const major = semver.major(version);
  return major === 0 ? `0.${semver.minor(version)}.0` : `${major}.0.0`;
}

export function serverFiles(
  model: Model,
  opts: {
    header: string;
    version: string;
    specPath: string;
    packages: { types: string; server: string };
    templates: Templates;
    runtime: Readonly<Record<string, string>>;
    /** Relative to the output folder; the `skeleton` config key may place it outside. */
    skeletonPath: string;
    v3ErrorPrefix: V3ErrorPrefix;
    /** Handlers of methods the spec dropped since the last major version (diff/version.ts). */
    removedHandlers: { legacy: string[]; v3: string[] };
  },
): GeneratedFile[] {
  const { header, packages } = opts;
  const built = builtInMethods(model);
  const summary = (m: Method) => blockCommentText(`${m.name}${m.version === "v3" ? " (3.0)" : ""}: ${words(m.description || m.result?.description || "")}`.replace(/:\s*$/, ""), { oneLine: true });
  const skeletonMethods = (version: Version) =>
    skeletonMethodsOf(model, version).map((m) => {
      const key = propertyKey(m.name);
      // The entry as prettier lays it out: on one line when it fits, else the call on the next line.
      const wrap = `  ${key}: async (_params, _context) => notImplemented(${stringLiteral(m.name)}),`.length > PRINT_WIDTH;
      return { name: m.name, summary: summary(m), key, wrap, list: isListMethod(model, m) };
    });
  const methods = methodsModule(model, header, opts.v3ErrorPrefix, opts.version);
  return [
    packageJsonFile(
      "server",
      { header, name: packages.server, version: opts.version, description: `Handler interfaces and a router for ${words(model.title)}.` },
      {
        // The skeleton is the user's own code: it is not part of the package.
        files: ["index.js", "index.d.ts", "runtime/", "methods.js", "methods.d.ts", "documentation.js", "documentation.d.ts", "mock.js", "mock.d.ts", "seed.schema.json", "README.md", "CHANGELOG.md"],
        exports: {
          ".": { types: "./index.d.ts", default: "./index.js" },
          // Stores several instances share (D26); no main entry imports them, so ioredis stays optional.
          "./redis": { types: "./runtime/server/redis.d.ts", default: "./runtime/server/redis.js" },
        },
        engines: { node: ">=20.19.0" },
        dependencies: { [packages.types]: opts.version },
        ...REDIS_PEER,
      },
    ),
    { path: "server/README.md", contents: render(opts.templates, "server/README.md.hbs", {
        header,
        name: packages.server,
        title: words(model.title),
        ttlHours: model.platform.idempotency.retentionHours.value,
        batchMax: BATCH_MAX_COMMANDS,
        pageSize: pageSizeOf(model),
        v3Prefix: V3_ERROR_PREFIXES[opts.v3ErrorPrefix],
      }) },
    { path: "server/index.d.ts", raw: true, contents: handlersDts(model, header, packages.types, opts.removedHandlers, opts.version) },
    {
      path: "server/index.js",
      template: "server/index.js.hbs",
      contents: render(opts.templates, "server/index.js.hbs", { header, documentationMethods: built.documentation, scopeListMethods: built.scopeList }),
    },
    { path: "server/methods.js", raw: true, contents: methods.js },
    { path: "server/methods.d.ts", raw: true, contents: methods.dts },
    ...runtimeFiles(opts.runtime, "server", header),
    {
      path: opts.skeletonPath,
      userOwned: true,
      template: "server/handlers.ts.hbs",
      contents: render(opts.templates, "server/handlers.ts.hbs", {
        specPath: opts.specPath,
        serverPackage: packages.server,
        legacy: skeletonMethods("legacy"),
        v3: skeletonMethods("v3"),
      }),
    },
  ];
}

/** `server/documentation.js`: the 3.0 OpenAPI document that `rest.documentation.openapi` serves. */
export function serverDocumentation(openapiV3: unknown, header: string): GeneratedFile[] {
  return [
    {
      path: "server/documentation.js",
      raw: true,
      contents: `// ${header}\n// The 3.0 OpenAPI document that rest.documentation.openapi serves.\nexport const openapiV3 = ${JSON.stringify(openapiV3)};\n`,
    },
    {
      path: "server/documentation.d.ts",
      raw: true,
      contents: `// ${header}\n/** The 3.0 OpenAPI document that rest.documentation.openapi serves (openapi/openapi.v3.json). */\nexport declare const openapiV3: Record<string, unknown>;\n`,
    },
  ];
}
