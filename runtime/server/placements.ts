/**
 * Placement handlers: what the platform sends to the page of a widget bound with `placement.bind`, checked and
 * parsed.
 *
 * The platform's reference (https://apidocs.bitrix24.com/api-reference/widgets/index.html, its standard data) says
 * the widget's page is opened by a POST whose URL query carries `DOMAIN`, `PROTOCOL`, `LANG` and `APP_SID`, and whose
 * form body carries the user's tokens (`AUTH_ID`, `REFRESH_ID`, `AUTH_EXPIRES`), `APPLICATION_TOKEN` ("the widget
 * handler can use it to verify that the request came from Bitrix24"), `member_id`, `PLACEMENT` (the code) and
 * `PLACEMENT_OPTIONS` (a JSON string of the call context). This handler checks the token as an event handler does,
 * parses the options, and calls the handler of the code, which answers with the page.
 */

import { readCapped } from "../shared/stream.js";
import { parseFormBody, tokenMatches } from "./events.js";

/** What a placement's page receives, parsed: the options typed by the code's entry of `M` (`PlacementOptions`). */
export interface PlacementRequest<O = Record<string, unknown>> {
  /** The code the page was opened under (`CRM_DEAL_DETAIL_TAB`), as the platform sent it. */
  placement: string;
  /** `PLACEMENT_OPTIONS`, parsed from its JSON string; `{}` when it is absent or no JSON object. */
  options: Partial<O> & Record<string, unknown>;
  /** The portal's address, `PROTOCOL` (`1` for HTTPS), the interface's language and the session (the URL's query). */
  domain?: string;
  protocol?: string;
  lang?: string;
  appSid?: string;
  /** The user's tokens, for calls on their behalf: secrets, never to be logged. */
  auth: { accessToken?: string; refreshToken?: string; expiresIn?: string; serverEndpoint?: string; memberId?: string; scope?: string; status?: string };
  /** The form body as sent, parsed PHP's way (`a[b]=1` nests): every leaf a string. */
  body: Record<string, unknown>;
}

export interface PlacementHandlerOptions<M> {
  /**
   * The application token the platform gave at install, or a lookup by the portal's `member_id`. A request whose
   * `APPLICATION_TOKEN` differs is refused with 401 and reaches no handler.
   */
  applicationToken: string | ((memberId: string | undefined) => string | undefined | Promise<string | undefined>);
  /** A handler per code (`CRM_DEAL_DETAIL_TAB`, `CRM_DYNAMIC_183_DETAIL_TAB`); it answers with the page. */
  handlers: { [C in keyof M]?: (request: PlacementRequest<M[C]>) => Response | string | Promise<Response | string> };
  /** The handler of a code with none of its own (a family's codes, `CRM_DYNAMIC_${string}_DETAIL_TAB`); else 404. */
  fallback?: (request: PlacementRequest) => Response | string | Promise<Response | string>;
  /** The largest body read, in bytes (default 1 MiB): a larger one is refused with 413. */
  maxBodyBytes?: number;
}

const answer = (status: number, error: string) => new Response(JSON.stringify({ error }), { status, headers: { "content-type": "application/json" } });

const text = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** `PLACEMENT_OPTIONS` as an object: JSON of an object, or `{}` (absent, empty, no JSON, or JSON of another kind). */
function optionsOf(raw: unknown): Record<string, unknown> {
  if (typeof raw !== "string" || raw === "") return {};
  try {
    // A prototype's key is never a key of the options: `{"__proto__": …}` would otherwise be an own key that a copy
    // (`Object.assign`, a spread into an object literal) turns into the copy's prototype.
    const parsed: unknown = JSON.parse(raw, (key, value: unknown) => (key === "__proto__" || key === "constructor" || key === "prototype" ? undefined : value));
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * A web-standard handler, `(request: Request) => Promise<Response>`, for the page bound with `placement.bind`: it
 * reads the form body (bounded), checks `APPLICATION_TOKEN`, parses `PLACEMENT_OPTIONS`, and calls the handler of the
 * code (or `fallback`), whose string answer is sent as HTML and whose `Response` as it is. 401 for a wrong or missing
 * token, 400 for a body with no `PLACEMENT` (or one that could not be read), 404 for a code with no handler and no
 * fallback, 405 for another method than POST (the BI analytics menu's page, which the platform opens with a GET and
 * no token, is not one this handler can check), 413 for a body over the bound; a handler, or a token lookup, that
 * throws is a 500 with no detail.
 */
export function createPlacementHandler<M = Record<string, Record<string, unknown>>>(options: PlacementHandlerOptions<M>): (request: Request) => Promise<Response> {
  const max = options.maxBodyBytes ?? 1 << 20;
  return async (request) => {
    if (request.method !== "POST") return answer(405, "METHOD_NOT_ALLOWED");
    let raw: string | null;
    try {
      raw = await readCapped(request.body, max, request.headers.get("content-length"));
    } catch {
      return answer(400, "INVALID_BODY");
    }
    if (raw === null) return answer(413, "PAYLOAD_TOO_LARGE");
    const body = parseFormBody(raw);
    // The token before anything the body says (events.ts tokenMatches: only a non-empty string the lookup gives).
    const given = text(body["APPLICATION_TOKEN"]) ?? "";
    const memberId = text(body["member_id"]);
    let matches: boolean;
    try {
      matches = await tokenMatches(options.applicationToken, memberId, given);
    } catch {
      return answer(500, "TOKEN_LOOKUP_FAILED");
    }
    if (!matches) return answer(401, "INVALID_APPLICATION_TOKEN");
    const placement = text(body["PLACEMENT"]);
    if (!placement) return answer(400, "NOT_A_PLACEMENT");
    const query = new URL(request.url).searchParams;
    const parsed: PlacementRequest = {
      placement,
      options: optionsOf(body["PLACEMENT_OPTIONS"]),
      ...(query.has("DOMAIN") ? { domain: query.get("DOMAIN") as string } : {}),
      ...(query.has("PROTOCOL") ? { protocol: query.get("PROTOCOL") as string } : {}),
      ...(query.has("LANG") ? { lang: query.get("LANG") as string } : {}),
      ...(query.has("APP_SID") ? { appSid: query.get("APP_SID") as string } : {}),
      auth: {
        accessToken: text(body["AUTH_ID"]),
        refreshToken: text(body["REFRESH_ID"]),
        expiresIn: text(body["AUTH_EXPIRES"]),
        serverEndpoint: text(body["SERVER_ENDPOINT"]),
        memberId,
        scope: text(body["APPLICATION_SCOPE"]),
        status: text(body["status"]),
      },
      body,
    };
    // Own properties only: a code such as `constructor` finds no handler through the prototype.
    const handlers = options.handlers as Record<string, ((request: PlacementRequest) => Response | string | Promise<Response | string>) | undefined>;
    const handler = Object.prototype.hasOwnProperty.call(handlers, placement) ? handlers[placement] : options.fallback;
    if (!handler) return answer(404, "NO_HANDLER");
    let page: Response | string;
    try {
      page = await handler(parsed);
    } catch {
      return answer(500, "HANDLER_FAILED");
    }
    return typeof page === "string" ? new Response(page, { status: 200, headers: { "content-type": "text/html; charset=utf-8" } }) : page;
  };
}
