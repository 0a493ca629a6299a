/**
 * The data the generator emits for the runtimes (`client/methods.js`, `server/methods.js`), declared once: the
 * emitters build these objects with these types, and the runtimes read every fact of the spec from them (names,
 * codes, texts, limits, per-method flags). The protocol's structure (addressing forms, the envelope) stays code.
 */

export type Version = "legacy" | "v3";

/** The spec's rule for `Idempotency-Key` values: printable ASCII of a length range. */
export interface KeyRule {
  minLength: number;
  maxLength: number;
  /** Lowest and highest character code allowed. */
  charCodes: [number, number];
}

export interface ClientMethodFlags {
  /** Methods a webhook may not call (answered `WRONG_AUTH_TYPE`). */
  applicationContextOnly: string[];
  /** 3.0 methods that honour `Idempotency-Key`. */
  idempotencyKey: string[];
  /** Methods the spec says only read: safe to repeat after a transport fault or an unclear answer. */
  readOnly: string[];
}

export interface ClientData {
  legacy: ClientMethodFlags;
  v3: ClientMethodFlags;
  /** Result members that the spec says hold links (made absolute when relative). */
  linkFields: string[];
  retry: {
    /** Error codes the spec says to retry. */
    codes: string[];
    expiredToken: string;
    operationTimeLimit: string;
    /** The request-rate refusal (`QUERY_LIMIT_EXCEEDED`): what a throttle wait past the budget fails with. */
    queryLimit: string;
    wrongAuthType: string;
    /** The code of an answer that is not the API's JSON. */
    unexpectedAnswer: string;
  };
  idempotencyKey: KeyRule;
  /** Records in one page of a legacy list method. */
  pageSize: number;
  batchMaxCommands: number;
  /** The method name of batch calls. */
  batchMethod: string;
  /** Legacy list methods that `all()` walks by the identifier cursor, with the names of their filter, order and id. */
  cursor: Record<string, Cursor>;
}

/** The names of a list method's filter, order and identifier parameters (a tuple: the data ships in every client). */
export type Cursor = [filter: string, order: string, id: string];

/** A parameter's type in the compact form the router validates against. */
export type RuntimeType = (
  | { kind: "integer" | "number" | "string" | "boolean"; enum?: Array<string | number | boolean> }
  | { kind: "object"; members: Array<{ name: string; required: boolean; type: RuntimeType }>; additional?: RuntimeType }
  | { kind: "array"; items: RuntimeType }
  | { kind: "union"; options: RuntimeType[] }
  | { kind: "ref"; name: string }
  | { kind: "unknown" }
) & { nullable?: boolean; enum?: Array<string | number | boolean> };

export interface MethodInfo {
  name: string;
  described: boolean;
  scopes: string[] | null;
  applicationContextOnly: boolean;
  adminOnly: boolean;
  idempotencyKey: boolean;
  /** Each parameter; `schemes`, for a URL, the schemes it must use (a value of another is not allowed). */
  params: Array<{ name: string; required: boolean; type: RuntimeType; schemes?: string[] }>;
  atLeastOne: string[][];
  callForms: string[][];
  /** Parameters required unless another parameter has a value ("ignored for `event_type=offline`"). */
  requiredUnless?: Array<{ param: string; unless: { param: string; value: string } }>;
  /** The method's own errors for a parameter's failure, where the spec links them (the spec's answer, not ERROR_ARGUMENT). */
  errors?: ErrorLink[];
  /** The method also takes GET (the verbs of the model): parameters from the query string in legacy, none in 3.0. */
  get?: true;
}

/** An error of the spec that answers a failure of one parameter: code, status and the text the spec quotes. */
export interface ErrorLink {
  argument: string;
  failure: "missing" | "type" | "value" | "none-of";
  code: string;
  status: number;
  /** The spec's quoted text; null where it quotes none (the router's own description is sent). */
  text: string | null;
}

/** The error codes the router answers with, by role. */
export interface ServerCodes {
  methodNotFound: string;
  httpsRequired: string;
  noAuth: string;
  invalidCredentials: string;
  wrongAuthType: string;
  insufficientScope: string;
  v3InsufficientScope: string;
  accessDenied: string;
  argument: string;
  v3Validation: string;
  invalidJson: string;
  invalidKey: string;
  keyReused: string;
  queryLimit: string;
  operationTimeLimit: string;
  internal: string;
  batchMethodNotAllowed: string;
  batchLengthExceeded: string;
  /** An HTTP verb the method does not take (PUT, DELETE…): the generator's own code, documented in the README. */
  verbNotAllowed: string;
}

export interface ServerData {
  legacy: Record<string, MethodInfo>;
  v3: Record<string, MethodInfo>;
  shapes: Record<string, RuntimeType>;
  scopeMap: Record<Version, Record<string, string[] | null>>;
  codes: ServerCodes;
  status: Record<
    | "argument"
    | "methodNotFound"
    | "httpsRequired"
    | "noAuth"
    | "wrongAuthType"
    | "insufficientScope"
    | "v3InsufficientScope"
    | "invalidKey"
    | "keyReused"
    | "queryLimit"
    | "operationTimeLimit"
    | "internal"
    | "batchMethodNotAllowed"
    | "batchLengthExceeded"
    | "verbNotAllowed",
    number
  > & { invalidJson: number | null };
  defaults: { v3ValidationStatus: number };
  /** The catalogue's text of each code, or its cause where it quotes no text. */
  errorTexts: Record<string, string>;
  /** The status of each authorization failure. */
  authStatus: Record<string, number>;
  wrongAuthTypeText: string;
  insufficientScopeText: { webhook: string; application: string };
  accessDenied: { status: number; text: string };
  idempotencyKey: KeyRule;
  idempotencyTtlMs: number;
  /** `get`: the batch takes GET with query parameters, as the legacy methods do. */
  batch: { method: string; maxCommands: number; get: boolean };
  /**
   * What a webhook's `userId` is in the credentials: the path's text in a package of major version 0, the client's
   * `number | string` from 1.0.0 on (a change of type waits for a major version).
   */
  webhookUserId: "string" | "number";
}
