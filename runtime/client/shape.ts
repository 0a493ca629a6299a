/**
 * The client's declarations that do not depend on the spec (issue 27: a checked file, not a string in the emitter),
 * generic over what an entry knows (the `Surface`): every entry, the main one and each area's, declares its trees and
 * calls and names its client `ClientOf<K, Surface>`. The generator ships this file's text after its imports as
 * `client/shape.d.ts`, with these imports written for the configured package names (emit/client/index.ts); in
 * prettier's layout, as prettier prints it. `npm run typecheck` checks it against the committed output's types.
 */
// The types package by its default name (the emitter writes the configured one).
import type { Time } from "collab-platform-api-types/common";
import type { AllOptions, ApiError, BatchOptions, CallOptions, CallResult as RuntimeCallResult, CommandOutcome, Limits, PageOptions } from "./index.js";
// ---- shipped from here on ----
/** What a call resolves to with `withResponse`: the result, the envelope's `time`, the response. */
export type CallResult<R> = RuntimeCallResult<R, Time>;
/** How a client authenticates: a webhook cannot call application-context methods. */
export type AuthKind = "webhook" | "application";
type Args<P> = {} extends P ? [params?: P, options?: CallOptions] : [params: P, options?: CallOptions];
/** A method of the namespace tree: resolves to its `result`; `withResponse` also gives `time` and the response. */
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
/** A method name that no string is: the parameter of the signature a call without required parameters fails on. */
type ParamsRequired<M, N> =
  {} extends ParamsOf<M, N> ? never : { readonly "its parameters are required": ParamsOf<M, N> };
export interface Caller<M> {
  // A call by name without the parameters its method requires matches no signature. TypeScript then reports the last
  // signature that failed on an argument, and leaves out those that failed on the count of arguments, as the generic
  // ones below do: it named another method (`'"tasks.task.getaccess"' is not assignable to '"catalog.product.download"'`).
  // These take one argument and fail on it, naming the method and its parameters' type. They never match: no string is
  // an object. They come before the generic ones, so that `Parameters<typeof client.call>` (the last signature) is
  // still the generic's; and they return what those return, so that a fake client whose `call` takes one argument and
  // returns a promise still implements them.
  /** Never matches: reports a call of a method whose parameters are required, made without them. */
  call<N extends keyof M & string>(method: N & ParamsRequired<M, N>): Promise<ResultOf<M, N>>;
  /** Never matches: reports a call of a method whose parameters are required, made without them. */
  request<N extends keyof M & string>(method: N & ParamsRequired<M, N>): Promise<CallResult<ResultOf<M, N>>>;
  call<N extends keyof M & string>(method: N, ...args: Args<ParamsOf<M, N>>): Promise<ResultOf<M, N>>;
  request<N extends keyof M & string>(method: N, ...args: Args<ParamsOf<M, N>>): Promise<CallResult<ResultOf<M, N>>>;
}
type ListNames<M> = { [N in keyof M]: M[N] extends { list: true } ? N : never }[keyof M] & string;
type ItemOf<R> = R extends ReadonlyArray<infer I> ? I : never;
/** One command of a legacy batch: `[method, params]`. */
export type BatchCommand<M> = {
  [N in keyof M & string]: {} extends ParamsOf<M, N> ? readonly [N, ParamsOf<M, N>?] : readonly [N, ParamsOf<M, N>];
}[keyof M & string];
type CommandResult<M, C> = C extends readonly [infer N, ...unknown[]] ? ResultOf<M, N> : never;
/** What a batch of the legacy methods `M` resolves to. */
export interface BatchResultOf<M, C> {
  /** Each command that ran (a halt leaves the rest out), typed per command. */
  outcomes: { [K in keyof C]?: CommandOutcome<CommandResult<M, C[K]>> };
  results: { [K in keyof C]?: CommandResult<M, C[K]> };
  errors: { [K in keyof C]?: ApiError };
  /** The last request's `time`; `times` has each request's (one per 50 commands). */
  time: Time;
  times: Time[];
  raw: unknown[];
}
/** What an entry of the client knows: its method maps, namespace trees and calls by name. */
export interface Surface {
  legacy: unknown;
  v3: unknown;
  legacyTree: unknown;
  legacyWebhookTree: unknown;
  v3Tree: unknown;
  v3WebhookTree: unknown;
  legacyNamedCalls: unknown;
  legacyApplicationCalls: unknown;
  v3NamedCalls: unknown;
  v3ApplicationCalls: unknown;
}
/** Calls only an application may make: a webhook's client leaves them out. */
type ApplicationOnly<K extends AuthKind, C> = K extends "webhook" ? unknown : C;
/** A client of an entry's methods for an auth kind. */
export type ClientOf<K extends AuthKind, S extends Surface> = ApplicationOnly<K, S["legacyApplicationCalls"]> &
  S["legacyNamedCalls"] &
  Caller<Allowed<S["legacy"], K>> &
  (K extends "webhook" ? S["legacyWebhookTree"] : S["legacyTree"]) & {
    /** Every record of a legacy list method, page by page (`start`). */
    paginate<N extends ListNames<Allowed<S["legacy"], K>>>(
      method: N,
      params?: ParamsOf<S["legacy"], N>,
      options?: PageOptions,
    ): AsyncIterable<ItemOf<ResultOf<S["legacy"], N>>>;
    /**
     * Every record of a legacy list method, a page at a time: by the identifier cursor for a `CursorMethod`, else
     * by `start` with `concurrency` requests in flight.
     */
    all<N extends ListNames<Allowed<S["legacy"], K>>>(
      method: N,
      params?: ParamsOf<S["legacy"], N>,
      options?: AllOptions,
    ): AsyncIterable<Array<ItemOf<ResultOf<S["legacy"], N>>>>;
    /** Legacy commands, any number, 50 to a request, typed per command. */
    batch<const C extends Record<string, BatchCommand<Allowed<S["legacy"], K>>>>(
      commands: C,
      options?: BatchOptions,
    ): Promise<BatchResultOf<S["legacy"], C>>;
    /** The request-rate bucket and each method's execution-time state. */
    limits(): Limits;
    /** The 3.0 methods (`/rest/api/`). */
    v3: ApplicationOnly<K, S["v3ApplicationCalls"]> &
      S["v3NamedCalls"] &
      Caller<Allowed<S["v3"], K>> &
      (K extends "webhook" ? S["v3WebhookTree"] : S["v3Tree"]);
  };
