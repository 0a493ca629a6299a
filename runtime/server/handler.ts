import type { MethodInfo, ServerData, Version } from "../shared/data.js";
import { redactAll as redact } from "../shared/redact.js";
import { validKey } from "../shared/key.js";
import { readCapped } from "../shared/stream.js";
import { type Out, type Usage, JSON_HEADERS, errorBody, isoClock, respond, timeOf } from "./envelope.js";
import { type AtomicIdempotencyStore, type IdempotencyStore, adaptIdempotencyStore, createMemoryIdempotencyStore } from "./idempotency.js";
import { type Admission, type Limiter, createLimiter } from "./limiter.js";
import { CORE, type Core, type RouterInput } from "./node.js";
import { MAX_REFERENCES, fromQuery, withReferences } from "./query.js";
import { isPage, withoutCount } from "./page.js";
import { own, route } from "./route.js";
import { type Problem, forbiddenKey, legacyParams, validate } from "./validate.js";

/**
 * The router: every cross-cutting rule of the spec, on a plain input (the node adapter) or a web-standard Request.
 * What it knows of each method (scopes, access, parameters, idempotency) and every code, text and status it
 * answers with come from the generated data (`methods.js`); the order of the checks is the protocol.
 */

/** The credentials a request carried: the webhook in its path, or the application token in body member `auth`. */
/**
 * The request's credentials. A webhook's `userId` is the path's segment as text (`U` = `string`) in a server package
 * of major version 0, as it always was; from the package's 1.0.0 on it has the client's type (`number | string`:
 * the number of a decimal segment, the text of any other), which its `index.d.ts` then declares.
 */
export type Credentials<U extends number | string = string> = { kind: "webhook"; userId: U; code: string } | { kind: "token"; token: string };

/** A path's user segment as the client writes it: 7 for "7"; a segment that is no plain safe integer stays text. */
function userIdOf(segment: string): number | string {
  if (!/^(?:0|[1-9]\d{0,15})$/.test(segment)) return segment;
  const n = Number(segment);
  return Number.isSafeInteger(n) ? n : segment;
}

/** Who the credentials belong to, as your `authenticate` hook finds it. */
export interface Caller {
  userId: number | string;
  /** The scopes of the webhook or of the application. */
  scopes: string[];
  admin?: boolean;
  /**
   * The application a token belongs to. Give it for every token: idempotency keys are kept per application and user
   * (never per token, which changes on renewal), and an idempotent 3.0 call by a token without it is refused with a
   * 500 and a log line rather than sharing keys across applications. See `ApplicationCaller`.
   */
  applicationId?: string;
  /** The webhook's own identifier, where your records have one; else idempotency keys a webhook by its code's hash. */
  webhookId?: string;
}

/** What `authenticate` returns for an application token: the application is required. */
export interface ApplicationCaller extends Caller {
  applicationId: string;
}

/**
 * `authenticate` typed by the credentials' kind: a token must give its application. Wrap your hook in it to have
 * the compiler check that (`authenticate: byCredentials({ webhook: …, token: … })`); a plain function still works.
 */
export function byCredentials<C extends string = string, U extends number | string = string>(hooks: {
  webhook(credentials: Extract<Credentials<U>, { kind: "webhook" }>): Caller | AuthFailure<C> | null | undefined | Promise<Caller | AuthFailure<C> | null | undefined>;
  token(credentials: Extract<Credentials, { kind: "token" }>): ApplicationCaller | AuthFailure<C> | null | undefined | Promise<ApplicationCaller | AuthFailure<C> | null | undefined>;
}): HandlerOptions<C, U>["authenticate"] {
  return (credentials) => (credentials.kind === "webhook" ? hooks.webhook(credentials) : hooks.token(credentials));
}

/** An authentication failure, answered with the code's status of the authorization failures table. */
export interface AuthFailure<C extends string = string> {
  /** A code of the authorization failures table (the generated package narrows it to those codes). */
  error: C;
  description?: string;
}

export interface HandlerContext {
  method: string;
  version: Version;
  readonly request: Request;
  auth: { kind: "webhook" | "application"; userId: number | string; applicationId?: string | undefined; scopes: string[]; admin: boolean };
  /** The `Idempotency-Key` of a 3.0 method that honours it. */
  idempotencyKey?: string | undefined;
}

export interface LogEntry {
  level: "error" | "warn";
  method?: string;
  /** Already redacted: no credential of the request, nor anything shaped like a webhook code or token. */
  message: string;
}

export interface HandlerOptions<C extends string = string, U extends number | string = string> {
  authenticate(credentials: Credentials<U>): Caller | AuthFailure<C> | null | undefined | Promise<Caller | AuthFailure<C> | null | undefined>;
  /**
   * Where answers are kept for replay. Instances that share records share a store with the atomic interface (the
   * Redis store of `…-server/redis`, or your own); a store of the old `get`/`set` interface still works, within one
   * instance.
   */
  idempotencyStore?: AtomicIdempotencyStore | IdempotencyStore;
  /**
   * Bounds of the default in-memory store (when no `idempotencyStore` is given), and `leaseMs`: how long one run may
   * hold a key before a repeat may run it (default 60 s; a repeat waits for the run meanwhile).
   */
  idempotency?: { maxEntries?: number; maxEntriesPerCaller?: number; maxBytes?: number; leaseMs?: number };
  limiter?: Limiter;
  /** Default 1 MiB. */
  maxBodyBytes?: number;
  /**
   * The bytes a legacy batch may build: the values its `$result[…]` references put in and its commands' answers
   * (default 16 MiB). The command that would cross it ends with an error in `result_error`; the others keep theirs.
   */
  maxBatchBytes?: number;
  /** Trust X-Forwarded-Proto from a proxy that terminates TLS. */
  trustProxy?: boolean;
  /** Answer plain HTTP requests too (local development, the mock's `--http`); the platform refuses them. */
  allowHttp?: boolean;
  /** Status of 3.0 validation and invalid-JSON errors, which the spec does not show. Default: the catalogue's, else 400. */
  v3ValidationStatus?: number;
  /** Body of 3.0 errors, which the spec does not show: `{ error: { code, message } }` (default) or the legacy body. */
  v3ErrorBody?: "object" | "legacy";
  /**
   * Serve the platform's 3.0 `batch` (default false). The spec says to call 3.0 methods one by one; the platform's
   * documentation describes a 3.0 batch (`api-reference/rest-v3.md`): a JSON array of `{ method, query }` (the
   * official JS SDK sends an object keyed `"0"`, `"1"`, …), answered `{ result: [...], time }` in order. The first
   * failing command's error is the answer; the commands before it have run. A list body has no room for `auth`: an
   * application sends the keyed object with `auth` in it, as the SDK does.
   */
  v3Batch?: boolean;
  /** Scopes for methods whose scope the spec does not state (the 3.0 methods), or in place of the spec's. */
  methodScopes?: { legacy?: Record<string, string[]>; v3?: Record<string, string[]> };
  log?: (entry: LogEntry) => void;
  now?: () => number;
}

export interface MethodErrorInit {
  code: string;
  description?: string;
  /** Default 400. */
  status?: number;
  argument?: string;
}

/** Throw it from a handler to answer with an error code of the spec. */
export class MethodError extends Error {
  readonly code: string;
  readonly status: number;
  readonly description: string;
  readonly argument: string | undefined;
  constructor(init: MethodErrorInit) {
    super(init.description ?? init.code);
    this.name = "MethodError";
    this.code = init.code;
    this.status = init.status ?? 400;
    this.description = init.description ?? "";
    this.argument = init.argument;
  }
}

export type BuiltIn = (context: HandlerContext) => unknown;
export type HandlerTables = { legacy?: Record<string, unknown>; v3?: Record<string, unknown> };

type Failure = { ok: false; status: number; code: string; description: string; extra?: Record<string, unknown> };
/** `more`: what a list handler's page says beside its records (`page.ts`). */
type Success = { ok: true; result: unknown; usage: Usage; more?: { total?: number; next?: number } };

class Context implements HandlerContext {
  readonly #input: RouterInput;
  constructor(
    readonly method: string,
    readonly version: Version,
    input: RouterInput,
    readonly auth: HandlerContext["auth"],
    readonly idempotencyKey: string | undefined,
  ) {
    this.#input = input;
  }
  get request(): Request {
    return this.#input.request();
  }
}

const encoder = new TextEncoder();
/** The limiter's options for a call alone and inside a batch, made once (a call allocates as little as it can). */
const OUTER = Object.freeze({ rate: true });
const INNER = Object.freeze({ rate: false });

async function sha256(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest("SHA-256", encoder.encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * A PHP array as JSON from its members' JSON texts: a list when its keys are 0..n-1 (or it is empty), else an object.
 * The keys keep an object's own order (integer-like ones ascending, as `Object.entries` gave them to the batch).
 */
function phpJson(members: ReadonlyArray<readonly [string, string]>): string {
  if (members.every(([k], i) => k === String(i))) return `[${members.map(([, v]) => v).join(",")}]`;
  return `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`;
}

/** An HTTP status a method error may answer with: an integer from 400 to 599. */
function isErrorStatus(status: unknown): status is number {
  return typeof status === "number" && Number.isInteger(status) && status >= 400 && status <= 599;
}

/**
 * The thrown value as a MethodError when it is one (or one from another copy of this runtime), read without letting
 * a hostile value throw again: a getter, a Proxy or a `toString` that throws is not a MethodError.
 */
function methodErrorOf(err: unknown): { status: unknown; code: string; description: string; argument: string | undefined } | null {
  try {
    if (!(err instanceof MethodError || (err instanceof Error && err.name === "MethodError"))) return null;
    const e = err as MethodError;
    return { status: e.status, code: String(e.code), description: String(e.description ?? ""), argument: typeof e.argument === "string" ? e.argument : undefined };
  } catch {
    return null;
  }
}

/** A value for a log line; any value, even one whose `toString` or `stack` throws. */
function describeValue(value: unknown): string {
  try {
    return typeof value === "number" ? String(value) : JSON.stringify(value) ?? String(value);
  } catch {
    return "(a value that cannot be shown)";
  }
}

/** What a handler threw, for the log: the stack of an Error, else its text; never throws itself. */
function describeThrown(err: unknown): string {
  try {
    if (err instanceof Error && typeof err.stack === "string" && err.stack) return err.stack;
    return String(err);
  } catch {
    try {
      return `a thrown ${Object.prototype.toString.call(err)} that cannot be shown`;
    } catch {
      return "a thrown value that cannot be shown";
    }
  }
}

export function createRuntimeHandler(
  handlers: HandlerTables,
  // Either kind of user id: the data says which the credentials carry (a hook for one is a hook for the other, as
  // TypeScript compares the parameters of methods both ways).
  options: HandlerOptions<string, number | string>,
  data: ServerData & { builtIns: Record<Version, Record<string, BuiltIn>> },
): ((request: Request) => Promise<Response>) & { [CORE]: Core } {
  const log = options.log ?? (() => undefined);
  const store = adaptIdempotencyStore(
    options.idempotencyStore ??
    createMemoryIdempotencyStore({
      ...options.idempotency,
      ...(options.now ? { now: options.now } : {}),
      onEvict: (e) =>
        log({
          level: "warn",
          message:
            e.reason === "too-large"
              ? "an answer larger than an eighth of the idempotency store's bytes was not kept; a repeat of its key runs the method again"
              : `idempotency store full (${e.reason}): a record of a caller was dropped before its time; a repeat of its key runs the method again`,
        }),
    }),
    options.now ?? Date.now,
  );
  const leaseMs = options.idempotency?.leaseMs ?? 60_000;
  let storeDown = false;
  const limiter = options.limiter ?? createLimiter(options.now ? { now: options.now } : {});
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const maxBatchBytes = options.maxBatchBytes ?? 16 * 1024 * 1024;
  const v3ValidationStatus = options.v3ValidationStatus ?? data.defaults.v3ValidationStatus;
  const v3Form = options.v3ErrorBody ?? "object";
  const now = options.now ?? Date.now;
  const iso = isoClock();
  const inFlight = new Map<string, { bodyHash: string; done: Promise<void> }>();
  const codes = data.codes;
  const text = (code: string) => own(data.errorTexts, code) ?? "";
  const keyRule = data.idempotencyKey;
  const webhookIds = new Map<string, string>();

  const fail = (version: Version, status: number, code: string, description: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Out =>
    respond(status, errorBody(version, code, description, extra, v3Form), headers);
  const failure = (status: number, code: string, description: string, extra?: Record<string, unknown>): Failure => ({ ok: false, status, code, description, ...(extra ? { extra } : {}) });

  function problemOf(version: Version, problem: Problem, info?: MethodInfo): Failure {
    const absent = problem.reason === "missing" || problem.reason === "none-of";
    const name = problem.argument.toUpperCase();
    const legacyText = absent ? `Argument '${name}' is null or empty` : problem.reason === "value" ? `Argument '${name}' has a value that is not allowed` : `Argument '${name}' has a wrong type`;
    const v3Text = absent
      ? `Required field \`${problem.argument}\` is missing`
      : problem.reason === "value"
        ? `Field \`${problem.argument}\` has a value that is not allowed`
        : `Field \`${problem.argument}\` has a wrong type`;
    const v3Extra = { validation: [{ field: problem.argument, message: absent ? "required" : problem.reason === "value" ? "value not allowed" : "wrong type" }] };
    // The spec's own error for this failure of this parameter, where it links one; else the protocol's. A wrong type
    // or value inside a parameter (`users[1]`, `fields.title`) is the parameter's.
    const inside = (l: { argument: string }) => problem.argument.startsWith(`${l.argument}.`) || problem.argument.startsWith(`${l.argument}[`);
    const link = info?.errors?.find((l) => l.failure === problem.reason && (l.argument === problem.argument || (!absent && inside(l))));
    if (link) {
      if (version === "v3") return failure(link.status, link.code, link.text ?? v3Text, v3Extra);
      return failure(link.status, link.code, link.text ?? legacyText, link.code === codes.argument ? { argument: problem.argument } : undefined);
    }
    if (version === "v3") return failure(v3ValidationStatus, codes.v3Validation, v3Text, v3Extra);
    return failure(data.status.argument, codes.argument, legacyText, { argument: problem.argument });
  }

  /** The spec scopes an idempotency key to one application or webhook and one user; the webhook by its code's hash. */
  // Synchronous once a webhook's hash is known: no extra turn of the event loop on the common path.
  function callerOf(credentials: Credentials<number | string>, auth: Caller): string | Promise<string> {
    if (credentials.kind === "token") return `application:${auth.applicationId ?? ""}:${auth.userId}`;
    if (typeof auth.webhookId === "string" && auth.webhookId) return `webhook:${credentials.userId}:id:${auth.webhookId}:${auth.userId}`;
    const id = webhookIds.get(credentials.code);
    const caller = (hash: string) => `webhook:${credentials.userId}:${hash}:${auth.userId}`;
    if (id !== undefined) return caller(id);
    return sha256(credentials.code).then((digest) => {
      const hash = digest.slice(0, 32);
      if (webhookIds.size >= 10_000) webhookIds.clear();
      webhookIds.set(credentials.code, hash);
      return caller(hash);
    });
  }

  interface Call {
    version: Version;
    name: string;
    info: MethodInfo;
    params: Record<string, unknown>;
    kind: "webhook" | "application";
    auth: Caller;
    caller: string;
    input: RouterInput;
    started: number;
    secrets: string[];
    idempotencyKey?: string | undefined;
    /** Inner calls of a batch take no request-rate token: the batch took one. */
    inBatch?: boolean;
  }

  /** The checks after authentication, in the spec's order: access, scope, administrator, limits, parameters. */
  function check(call: Call): Failure | null | Promise<Failure | null> {
    const { version, name, info, kind, auth } = call;
    if (info.applicationContextOnly && kind === "webhook") return failure(data.status.wrongAuthType, codes.wrongAuthType, data.wrongAuthTypeText);
    const scopes = own(options.methodScopes?.[version], name) ?? info.scopes;
    if (scopes && !scopes.includes("base") && !scopes.some((s) => auth.scopes.includes(s))) {
      if (version === "v3") return failure(data.status.v3InsufficientScope, codes.v3InsufficientScope, text(codes.v3InsufficientScope));
      return failure(data.status.insufficientScope, codes.insufficientScope, kind === "webhook" ? data.insufficientScopeText.webhook : data.insufficientScopeText.application);
    }
    if (info.adminOnly && !auth.admin) return failure(data.accessDenied.status, codes.accessDenied, data.accessDenied.text);
    const admitted = limiter.admit(call.caller, name, call.inBatch ? INNER : OUTER);
    // A shared limiter (Redis) answers later; the in-memory one at once, with no extra turn of the event loop.
    if (admitted instanceof Promise) return admitted.then((a) => afterAdmission(call, a));
    return afterAdmission(call, admitted);
  }

  function afterAdmission(call: Call, admitted: Admission): Failure | null {
    if (!admitted.allowed) {
      const operating = admitted.reason === "operating";
      const code = operating ? codes.operationTimeLimit : codes.queryLimit;
      return failure(operating ? data.status.operationTimeLimit : data.status.queryLimit, code, text(code), {
        time: timeOf(call.started, now(), { operating: admitted.operating, resetAt: admitted.resetAt }, iso),
      });
    }
    const problem = validate(call.info, call.params, data.shapes);
    return problem ? problemOf(call.version, problem, call.info) : null;
  }

  /**
   * The method a name calls, when the router serves it: one the spec describes, one it only names that has a
   * handler, or a built-in. Null otherwise (`ERROR_METHOD_NOT_FOUND`).
   */
  function served(version: Version, name: string): MethodInfo | null {
    const info = own(version === "v3" ? data.v3 : data.legacy, name);
    if (!info) return null;
    return info.described || own(data.builtIns[version], name) || typeof own(handlers[version], info.name) === "function" ? info : null;
  }

  /** A batch command's method: a nested batch and a method not served end the command with their errors. */
  function commandTarget(version: Version, method: string): MethodInfo | Failure {
    if (method === data.batch.method) return failure(data.status.batchMethodNotAllowed, codes.batchMethodNotAllowed, text(codes.batchMethodNotAllowed));
    return served(version, method) ?? failure(data.status.methodNotFound, codes.methodNotFound, text(codes.methodNotFound));
  }

  /** One method call, alone or inside a batch: the checks, then the handler. */
  async function execute(call: Call, checked = false): Promise<Success | Failure> {
    let early = checked ? null : check(call);
    if (early instanceof Promise) early = await early;
    if (early) return early;
    const { version, name, info, kind, auth } = call;
    const builtIn = own(data.builtIns[version], name);
    const handler = own(handlers[version], info.name);
    if (!builtIn && typeof handler !== "function") return failure(data.status.methodNotFound, codes.methodNotFound, text(codes.methodNotFound));
    const context = new Context(name, version, call.input, { kind, userId: auth.userId, applicationId: auth.applicationId, scopes: auth.scopes, admin: Boolean(auth.admin) }, call.idempotencyKey);
    const t0 = now();
    try {
      const result = builtIn ? await builtIn(context) : await (handler as (p: unknown, c: HandlerContext) => unknown)(call.params, context);
      const usage = limiter.account(call.caller, name, (now() - t0) / 1000);
      if (!isPage(result)) return { ok: true, result: result ?? null, usage };
      // A legacy list page: `total` and `next` go beside `result`, unless the request asked for no count.
      const more = version === "legacy" && !withoutCount(call.params) ? { total: result.total, next: result.next } : undefined;
      return { ok: true, result: result.items, usage, ...(more ? { more } : {}) };
    } catch (err) {
      const e = methodErrorOf(err);
      if (e) {
        if (!isErrorStatus(e.status)) {
          // Status 0 is what a client reports for a transport failure: a handler forwarding an upstream error must
          // not take the server down with ERR_HTTP_INVALID_STATUS_CODE. The code and text still go out.
          log({ level: "error", method: name, message: redact(`MethodError ${e.code} has status ${describeValue(e.status)}, which is not an HTTP error status (400-599); answered ${data.status.internal}`, call.secrets) });
          return failure(data.status.internal, e.code, redact(e.description, call.secrets), e.argument ? { argument: e.argument } : undefined);
        }
        return failure(e.status, e.code, redact(e.description, call.secrets), e.argument ? { argument: e.argument } : undefined);
      }
      log({ level: "error", method: name, message: redact(describeThrown(err), call.secrets) });
      return failure(data.status.internal, codes.internal, text(codes.internal));
    }
  }

  async function runBatch(call: Omit<Call, "info" | "name">, params: Record<string, unknown>, halt: boolean): Promise<Out> {
    const cmd = params.cmd;
    if (!cmd || typeof cmd !== "object") return fail("legacy", data.status.argument, codes.argument, "Argument 'CMD' is null or empty", { argument: "cmd" });
    const entries = Object.entries(cmd as Record<string, unknown>);
    // Values for the references of later commands, and each answer's JSON, made once: the answer is joined from
    // these texts, so a result that cannot be written as JSON fails its own command and no other.
    const results: Record<string, unknown> = {};
    const resultJson: Array<[string, string]> = [];
    const sizes = new Map<string, number>();
    const errors: Array<[string, string]> = [];
    const times: Array<[string, string]> = [];
    const totals: Array<[string, string]> = [];
    const nexts: Array<[string, string]> = [];
    // What the batch has built so far, in bytes: references put in and answers (100 references a command
    // to the previous command's whole result grew the answer 100x a command, to the heap's limit).
    let built = 0;
    const overBound = () => ({
      ok: false as const,
      status: data.status.argument,
      code: codes.argument,
      description: `The batch's answer would pass ${maxBatchBytes} bytes; this command was not answered`,
    });
    let operating: Usage = limiter.usage(call.caller, data.batch.method);
    for (const [index, [id, command]] of entries.entries()) {
      // The documentation's batch page: commands past the limit end with an error; the first ones run.
      if (index >= data.batch.maxCommands) {
        errors.push([id, JSON.stringify({ error: codes.batchLengthExceeded, error_description: text(codes.batchLengthExceeded) })]);
        continue;
      }
      const started = now();
      let outcome: Success | Failure;
      try {
        outcome = await runCommand(call, command, results, sizes, maxBatchBytes - built, started);
      } catch (err) {
        // A bug or a hostile value in one command ends that command, never the batch nor its earlier answers.
        log({ level: "error", method: typeof command === "string" ? command.split("?")[0] : undefined, message: redact(describeThrown(err), call.secrets) });
        outcome = failure(data.status.internal, codes.internal, text(codes.internal));
      }
      if (outcome.ok) {
        let json: string | undefined;
        let total: string | undefined;
        let next: string | undefined;
        try {
          json = JSON.stringify(outcome.result) ?? "null";
          // A page's count and next start, as they will go out: a value JSON cannot write fails this command only.
          if (outcome.more?.total !== undefined) total = JSON.stringify(outcome.more.total) ?? "null";
          if (outcome.more?.next !== undefined) next = JSON.stringify(outcome.more.next) ?? "null";
        } catch (err) {
          log({ level: "error", method: typeof command === "string" ? command.split("?")[0] : undefined, message: redact(`the result cannot be written as JSON: ${describeThrown(err)}`, call.secrets) });
          outcome = failure(data.status.internal, codes.internal, text(codes.internal));
        }
        if (outcome.ok && json !== undefined && built + json.length > maxBatchBytes) outcome = overBound();
        if (outcome.ok && json !== undefined) {
          built += json.length;
          results[id] = outcome.result;
          sizes.set(id, json.length);
          resultJson.push([id, json]);
          if (total !== undefined) totals.push([id, total]);
          if (next !== undefined) nexts.push([id, next]);
          times.push([id, JSON.stringify(timeOf(started, now(), outcome.usage, iso))]);
          operating = outcome.usage;
          continue;
        }
      }
      if (!outcome.ok) {
        errors.push([id, JSON.stringify({ error: outcome.code, error_description: outcome.description })]);
        if (halt) break;
      }
    }
    const body =
      `{"result":{"result":${phpJson(resultJson)},"result_error":${phpJson(errors)},"result_total":${phpJson(totals)},` +
      `"result_next":${phpJson(nexts)},"result_time":${phpJson(times)}},"time":${JSON.stringify(timeOf(call.started, now(), operating, iso))}}`;
    return { status: 200, headers: JSON_HEADERS as Record<string, string>, body };
  }

  /** One command of a legacy batch: its method, its parameters with references put in, then the call. */
  async function runCommand(call: Omit<Call, "info" | "name">, command: unknown, results: Record<string, unknown>, sizes: ReadonlyMap<string, number>, room: number, started: number): Promise<Success | Failure> {
    let method = "";
    let inner: Record<string, unknown> = {};
    if (typeof command === "string") {
      const q = command.indexOf("?");
      method = q < 0 ? command : command.slice(0, q);
      inner = q < 0 ? {} : fromQuery(command.slice(q + 1));
    } else if (command && typeof command === "object" && typeof (command as { method?: unknown }).method === "string") {
      // The SDK's form of a command: { method, params }.
      method = (command as { method: string }).method;
      const p = (command as { params?: unknown }).params;
      inner = p && typeof p === "object" && !Array.isArray(p) ? (p as Record<string, unknown>) : {};
    }
    // As a call alone: the answer's format after the name, and the credential, which is the batch's, not the
    // handler's (a command's `auth`, as older SDKs put into each command, went on into the handler's parameters,
    // and an echoing handler sent the token back).
    if (method.endsWith(".json")) method = method.slice(0, -5);
    inner = withoutAuth(inner, call.secrets);
    const target = commandTarget("legacy", method);
    if ("ok" in target) return target;
    // A key that reaches a prototype is refused as it was sent; then references to earlier commands' results
    // (`$result[add][ID]`) take their values, and what they bring is checked the same way.
    let forbidden = forbiddenKey(inner);
    if (!forbidden) {
      const budget = { left: MAX_REFERENCES, bytes: room, sizes };
      inner = withReferences(inner, results, budget) as Record<string, unknown>;
      if (budget.bytes < 0) {
        return failure(data.status.argument, codes.argument, `The references of this command would pass the batch's bound of ${maxBatchBytes} bytes`);
      }
      forbidden = forbiddenKey(inner);
    }
    if (forbidden) return problemOf("legacy", { argument: forbidden, reason: "type" });
    return await execute({ ...call, name: method, info: target, params: legacyParams(target, inner, data.shapes), started, inBatch: true });
  }

  /** The platform's 3.0 batch (option `v3Batch`): commands in order; the first failure is the answer. */
  async function runV3Batch(call: Omit<Call, "info" | "name" | "params">, body: Record<string, unknown>): Promise<Out> {
    const commands = Object.keys(body)
      .filter((k) => /^\d+$/.test(k))
      .sort((a, b) => Number(a) - Number(b))
      .map((k) => body[k]);
    if (commands.length > data.batch.maxCommands) return fail("v3", data.status.batchLengthExceeded, codes.batchLengthExceeded, text(codes.batchLengthExceeded));
    const results: unknown[] = [];
    let operating: Usage = limiter.usage(call.caller, data.batch.method);
    for (const command of commands) {
      const c = (command && typeof command === "object" ? command : {}) as { method?: unknown; query?: unknown };
      const method = typeof c.method === "string" ? c.method : "";
      // The credential is the batch's: a command's own is kept from the handler, as in the legacy batch.
      const query = withoutAuth(c.query && typeof c.query === "object" && !Array.isArray(c.query) ? (c.query as Record<string, unknown>) : {}, call.secrets);
      const target = commandTarget("v3", method);
      let outcome: Success | Failure;
      if ("ok" in target) outcome = target;
      else {
        const forbidden = forbiddenKey(query);
        outcome = forbidden ? problemOf("v3", { argument: forbidden, reason: "type" }) : await execute({ ...call, name: method, info: target, params: query, started: now(), inBatch: true });
      }
      if (!outcome.ok) return fail("v3", outcome.status, outcome.code, outcome.description, outcome.extra ?? {});
      results.push(outcome.result);
      operating = outcome.usage;
    }
    return respond(200, { result: results, time: timeOf(call.started, now(), operating, iso) });
  }

  async function core(input: RouterInput): Promise<Out> {
    const started = now();
    const url = input.pathname === undefined ? new URL(input.url) : { pathname: input.pathname, protocol: input.protocol ?? "http:" };
    const r = route(url.pathname);
    const version: Version = r?.version ?? "legacy";
    const notFound = () => fail(version, data.status.methodNotFound, codes.methodNotFound, text(codes.methodNotFound));
    // The request's own credentials, taken out of every log line whatever shape they take there.
    const secrets: string[] = r?.webhook ? [r.webhook.code] : [];
    try {
      // 1. HTTPS only (a trusted proxy may say so in X-Forwarded-Proto).
      const forwarded = options.trustProxy ? input.header("x-forwarded-proto")?.split(",")[0]?.trim() : undefined;
      if (!options.allowHttp && (forwarded ?? url.protocol.replace(":", "")) !== "https") return fail(version, data.status.httpsRequired, codes.httpsRequired, text(codes.httpsRequired));
      if (!r) return notFound();
      // 2. The method: `.json` suffix in legacy; a 3.0-only method without /api/ is not found.
      let name = r.method;
      if (version === "legacy" && name.endsWith(".json")) name = name.slice(0, -5);
      const isBatch = version === "legacy" && name === data.batch.method && !own(data.legacy, name);
      const isV3Batch = version === "v3" && options.v3Batch === true && name === data.batch.method && !own(data.v3, name);
      const info = served(version, name);
      if (!isBatch && !isV3Batch && !info) return notFound();
      // 3. Verb and body: the verbs of the model, the rule the OpenAPI documents follow. POST always; GET in
      // 3.0 (a method with parameters answers the spec's validation error below); GET in legacy where the method
      // takes it, its parameters in the query string. Any other verb is refused with a code that names it.
      const verb = input.method.toUpperCase();
      const takesGet = isBatch ? data.batch.get : info?.get === true;
      if (verb !== "POST" && !(verb === "GET" && (takesGet || (version === "v3" && !isV3Batch)))) {
        const shown = /^[A-Z-]{1,16}$/.test(verb) ? verb : "this";
        const description = `The HTTP method ${shown} is not accepted by ${name}; use ${takesGet ? "GET or POST" : "POST"}`;
        return fail(version, data.status.verbNotAllowed, codes.verbNotAllowed, description, {}, { Allow: takesGet ? "GET, POST" : "POST" });
      }
      let params: Record<string, unknown> = {};
      if (verb === "GET" && version === "legacy") {
        // The platform's reference: "Simple requests can be sent via GET"; PHP-style keys as in a form body.
        const q = input.url.indexOf("?");
        const hash = input.url.indexOf("#", q);
        if (q >= 0) params = fromQuery(input.url.slice(q + 1, hash < 0 ? undefined : hash));
      } else if (verb === "POST") {
        const body = await input.readText(maxBodyBytes);
        if (body === null || body === "timeout") {
          const why = body === null ? "Request body is too large" : "The request body did not arrive in time";
          return version === "v3" ? fail("v3", v3ValidationStatus, codes.v3Validation, why) : fail("legacy", data.status.argument, codes.argument, why);
        }
        const type = (input.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
        // The legacy API takes form data as well as JSON (PHP-style keys: `a[b]=1&c[]=2`); 3.0 takes JSON only.
        if (version === "legacy" && type === "application/x-www-form-urlencoded") params = fromQuery(body);
        else if (body.trim() !== "") {
          const invalidJsonStatus = data.status.invalidJson ?? v3ValidationStatus;
          if (type !== "application/json" && version === "v3") return fail("v3", invalidJsonStatus, codes.invalidJson, "The request body must be JSON");
          let parsed: unknown;
          try {
            parsed = JSON.parse(body);
          } catch {
            return version === "v3" ? fail("v3", invalidJsonStatus, codes.invalidJson, "The request body is not valid JSON") : fail("legacy", data.status.argument, codes.argument, "The request body is not valid JSON");
          }
          // The 3.0 batch's body is a list of commands: taken as the object keyed by position the SDK sends.
          if (isV3Batch && Array.isArray(parsed)) parsed = { ...parsed };
          if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
            return version === "v3" ? fail("v3", invalidJsonStatus, codes.invalidJson, "The request body must be a JSON object") : fail("legacy", data.status.argument, codes.argument, "The request body must be a JSON object");
          }
          params = parsed as Record<string, unknown>;
        }
      } else if (info && info.params.length > 0) {
        // A 3.0 GET: for methods without parameters; parameters are read only from the POST body.
        const out = problemOf("v3", { argument: info.params.find((p) => p.required)?.name ?? info.params[0]?.name ?? "", reason: "missing" });
        return fail("v3", out.status, out.code, out.description, out.extra);
      }
      const forbidden = forbiddenKey(params);
      if (forbidden) {
        const out = problemOf(version, { argument: forbidden, reason: "type" });
        return fail(version, out.status, out.code, out.description, out.extra);
      }
      // 4. Authentication.
      const token = typeof params.auth === "string" ? params.auth : undefined;
      params = withoutAuth(params, secrets);
      let credentials: Credentials<number | string>;
      if (r.webhook) credentials = { kind: "webhook", userId: data.webhookUserId === "number" ? userIdOf(r.webhook.userId) : r.webhook.userId, code: r.webhook.code };
      else if (token) credentials = { kind: "token", token };
      else return fail(version, data.status.noAuth, codes.noAuth, text(codes.noAuth));
      const found = await options.authenticate(credentials);
      if (!found || "error" in found) {
        const code = found?.error ?? codes.invalidCredentials;
        // The hook's own words may quote the credentials; the catalogue's text is the spec's and is sent as it is.
        return fail(version, own(data.authStatus, code) ?? 401, code, found?.description !== undefined ? redact(found.description, secrets) : text(code));
      }
      const kind = credentials.kind === "webhook" ? "webhook" : "application";
      const known = callerOf(credentials, found);
      const caller = typeof known === "string" ? known : await known;
      if (isBatch) {
        const admitted = await limiter.admit(caller, name, OUTER);
        if (!admitted.allowed && admitted.reason === "rate") return fail("legacy", data.status.queryLimit, codes.queryLimit, text(codes.queryLimit));
        const halt = params.halt === true || params.halt === 1 || params.halt === "1" || params.halt === "true";
        return await runBatch({ version: "legacy", params, kind, auth: found, caller, input, started, secrets }, params, halt);
      }
      if (isV3Batch) {
        const admitted = await limiter.admit(caller, name, OUTER);
        if (!admitted.allowed && admitted.reason === "rate") return fail("v3", data.status.queryLimit, codes.queryLimit, text(codes.queryLimit));
        return await runV3Batch({ version: "v3", kind, auth: found, caller, input, started, secrets }, params);
      }
      if (!info) return notFound();
      if (version === "legacy") params = legacyParams(info, params, data.shapes);
      // 5. Idempotency (3.0 methods that honour it; the header is ignored elsewhere, and echoed in 3.0).
      const key = input.header("idempotency-key");
      const honours = version === "v3" && info.idempotencyKey && key !== null;
      const echo: Record<string, string> = key !== null && version === "v3" ? { "Idempotency-Key": key } : {};
      const call: Call = { version, name, info, params, kind, auth: found, caller, input, started, secrets, idempotencyKey: honours ? (key ?? undefined) : undefined };
      if (!honours || key === null) return answer(call, await execute(call), echo);
      // Checked before the key: a request that cannot run is answered as such, never stored or replayed.
      let early = check(call);
      if (early instanceof Promise) early = await early;
      if (early) return answer(call, early, echo);
      if (!validKey(key, keyRule)) return fail("v3", data.status.invalidKey, codes.invalidKey, text(codes.invalidKey), {}, echo);
      // Keys are kept per application (or webhook) and user, never per token: a token changes when it is renewed,
      // and a create retried across a renewal must replay. A token whose application is unknown cannot be scoped.
      if (credentials.kind === "token" && !(typeof found.applicationId === "string" && found.applicationId)) {
        log({ level: "error", method: name, message: `authenticate gave no applicationId for a token; the idempotent call of ${name} was refused rather than share keys across applications` });
        return fail("v3", data.status.internal, codes.internal, text(codes.internal), {}, echo);
      }
      const storeKey = `${caller}\u0000${name}\u0000${key}`;
      const bodyHash = await sha256(JSON.stringify(params));
      const keyReused = () => fail("v3", data.status.keyReused, codes.keyReused, text(codes.keyReused), {}, echo);
      // When the store cannot be reached the call is refused (idempotency fails closed), never run unrecorded.
      const unavailable = (err: unknown) => {
        if (!storeDown) log({ level: "error", method: name, message: redact(`idempotency store unavailable; idempotent calls are refused until it answers: ${describeThrown(err)}`, secrets) });
        storeDown = true;
        return fail("v3", 503, codes.internal, "Idempotency records cannot be reached; try again", {}, { ...echo, "Retry-After": "1" });
      };
      const waitUntil = performance.now() + leaseMs + 1_000;
      let pause = 5;
      let lease: string;
      for (;;) {
        let reservation: Awaited<ReturnType<AtomicIdempotencyStore["reserve"]>>;
        try {
          reservation = await store.reserve(storeKey, bodyHash, leaseMs, caller);
        } catch (err) {
          return unavailable(err);
        }
        if (storeDown) {
          storeDown = false;
          log({ level: "warn", method: name, message: "idempotency store answers again" });
        }
        if (reservation.state === "done") {
          if (reservation.record.bodyHash !== bodyHash) return keyReused();
          return { status: 200, headers: { ...JSON_HEADERS, ...echo, "Idempotent-Replayed": "true" }, body: reservation.record.body };
        }
        if (reservation.state === "reserved") {
          lease = reservation.lease;
          break;
        }
        if (reservation.bodyHash !== bodyHash) return keyReused();
        // A concurrent repeat waits for the run that holds the key and replays it; if that one failed, it runs again.
        // A run in this process wakes its waiters at once; another instance's is polled, a little less often each time.
        const left = waitUntil - performance.now();
        if (left <= 0) return fail("v3", 503, codes.internal, "A call with this Idempotency-Key is still running; try again", {}, { ...echo, "Retry-After": "1" });
        const local = inFlight.get(storeKey);
        if (local) {
          // A run in this process: woken when it ends, or when the wait's bound does (a handler that hangs).
          let timer: ReturnType<typeof setTimeout> | undefined;
          await Promise.race([local.done, new Promise((resolve) => (timer = setTimeout(resolve, left)))]);
          clearTimeout(timer);
        } else {
          await new Promise((resolve) => setTimeout(resolve, pause));
          pause = Math.min(250, pause * 2);
        }
      }
      let finish: () => void = () => undefined;
      inFlight.set(storeKey, { bodyHash, done: new Promise<void>((resolve) => (finish = resolve)) });
      // The run keeps its hold on the key while it runs: a slow method is never run again when its lease ends.
      const extend = store.extend?.bind(store);
      const keepLease = extend
        ? setInterval(() => {
            extend(storeKey, lease, leaseMs).catch(() => undefined);
          }, Math.max(10, Math.floor(leaseMs / 3)))
        : undefined;
      try {
        const outcome = await execute(call, true);
        const out = answer(call, outcome, echo);
        try {
          if (outcome.ok) await store.complete(storeKey, lease, { bodyHash, body: out.body }, data.idempotencyTtlMs, caller);
          else await store.release(storeKey, lease);
        } catch (err) {
          // The method ran: its answer goes out. A repeat may run it again, which the log line says.
          log({ level: "error", method: name, message: redact(`the answer could not be kept; a repeat of this key may run ${name} again: ${describeThrown(err)}`, secrets) });
        }
        return out;
      } finally {
        clearInterval(keepLease);
        inFlight.delete(storeKey);
        finish();
      }
    } catch (err) {
      log({ level: "error", message: redact(describeThrown(err), secrets) });
      return fail(version, data.status.internal, codes.internal, text(codes.internal));
    }
  }

  function answer(call: Call, outcome: Success | Failure, echo: Record<string, string>): Out {
    if (!outcome.ok) return fail(call.version, outcome.status, outcome.code, outcome.description, outcome.extra ?? {}, echo);
    const time = timeOf(call.started, now(), outcome.usage, iso);
    // The platform's order of members: `result`, then `next` and `total` of a list page, then `time`.
    const more = outcome.more;
    const body = JSON.stringify(more ? { result: outcome.result, next: more.next, total: more.total, time } : { result: outcome.result, time });
    return { status: 200, headers: echo["Idempotency-Key"] !== undefined ? { ...JSON_HEADERS, ...echo } : (JSON_HEADERS as Record<string, string>), body };
  }

  /** The web-standard handler. */
  async function handle(request: Request): Promise<Response> {
    const out = await core({
      url: request.url,
      method: request.method,
      header: (n) => request.headers.get(n),
      readText: (limit) => readBody(request, limit),
      request: () => request,
    });
    return new Response(out.body, { status: out.status, headers: out.headers });
  }
  return Object.assign(handle, { [CORE]: core });
}

/** Reads at most `limit` bytes of a Request's body; null when it is longer (a declared length decides at once). */
function readBody(request: Request, limit: number): Promise<string | null> {
  return readCapped(request.body, limit, request.headers.get("content-length"));
}

/** Names of the generated methods the router answers itself, and what each answers with. */
export interface BuiltInSpec {
  documentation: { legacy: string[]; v3: string[] };
  scopeList: { legacy: string[]; v3: string[] };
}

/**
 * The parameters without `auth`, the credential (a call's, or a batch command's own, which the batch's stands for),
 * its text kept in `secrets` for redaction; the same object when there is none.
 */
function withoutAuth(params: Record<string, unknown>, secrets: string[]): Record<string, unknown> {
  if (!Object.hasOwn(params, "auth")) return params;
  if (typeof params.auth === "string" && params.auth) secrets.push(params.auth);
  // Not `delete`: it would turn the object into a slow dictionary for the handler.
  const { auth: _credential, ...rest } = params;
  return rest;
}
