import type { ServerData, Version } from "../shared/data.js";
import { type BuiltIn, type BuiltInSpec, type HandlerOptions, type HandlerTables, createRuntimeHandler } from "./handler.js";

export {
  MethodError,
  createRuntimeHandler,
  byCredentials,
  type ApplicationCaller,
  type AuthFailure,
  type Caller,
  type Credentials,
  type HandlerContext,
  type HandlerOptions,
  type LogEntry,
  type MethodErrorInit,
} from "./handler.js";
export {
  adaptIdempotencyStore,
  createMemoryIdempotencyStore,
  type AtomicIdempotencyStore,
  type EvictionEvent,
  type IdempotencyRecord,
  type IdempotencyStore,
  type MemoryStore,
  type MemoryStoreOptions,
  type Reservation,
} from "./idempotency.js";
export { createLimiter, type Admission, type Limiter, type LimiterOptions, type LocalLimiter, type RateStore } from "./limiter.js";
export { toNodeListener, type NodeListenerOptions, type NodeRequestLike, type NodeResponseLike } from "./node.js";
export { redactAll as redact } from "../shared/redact.js";
export { validate, type Problem } from "./validate.js";
export { route, type Route } from "./route.js";
export { fromQuery } from "./query.js";
export { isPage, page, pageOf, type Page } from "./page.js";
export { decimal } from "./decimal.js";
export { createEventHandler, formEncode, parseFormBody, type EventHandlerOptions, type EventRequest, type FormEncoded } from "./events.js";
export { createPlacementHandler, type PlacementHandlerOptions, type PlacementRequest } from "./placements.js";
export type { ServerData } from "../shared/data.js";
export { EVENTS_CONTROL_PATH, createMockWith, sample, type EventDelivery, type EventDeliveryReport, type MockEventOptions, type MockHandler, type MockData, type MockMethod, type MockOptions, type MockSeed, type MockState, type Schema } from "./mock.js";

export type { BuiltInSpec } from "./handler.js";

/**
 * A web-standard handler, `(request: Request) => Promise<Response>`, that enforces the spec's rules (addressing,
 * HTTPS, authentication, scopes, validation, 3.0 request rules, idempotency, limits, batch, the envelope) and
 * calls your handlers with typed parameters. `data` is the generated `methods.js`.
 */
export function createHandlerWith(
  handlers: HandlerTables,
  options: HandlerOptions<string, number | string>,
  data: ServerData,
  builtIn: BuiltInSpec,
  documents: { openapiV3: unknown },
): (request: Request) => Promise<Response> {
  const table = (version: Version): Record<string, BuiltIn> => {
    const out: Record<string, BuiltIn> = {};
    for (const name of builtIn.documentation[version]) out[name] = () => documents.openapiV3;
    for (const name of builtIn.scopeList[version]) out[name] = () => data.scopeMap;
    return out;
  };
  return createRuntimeHandler(handlers, options, { ...data, builtIns: { legacy: table("legacy"), v3: table("v3") } });
}
