import type { Out } from "./envelope.js";

/**
 * A `node:http`/`node:https` request listener around a handler made by `createHandler`. The types are structural,
 * so that the package needs no @types/node. A handler made by `createHandler` is served without building Request
 * and Response objects, which on Node 20 cost most of a small call; `context.request` is then made on first use.
 */

/** What the node adapter uses of `http.IncomingMessage`. */
export interface NodeRequestLike {
  method?: string | undefined;
  url?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  socket?: { encrypted?: boolean } | object | null;
  on(event: "data", listener: (chunk: Uint8Array) => void): unknown;
  on(event: "end" | "close", listener: () => void): unknown;
  on(event: "error", listener: (err: unknown) => void): unknown;
  destroy(): unknown;
}

/** What the node adapter uses of `http.ServerResponse`. */
export interface NodeResponseLike {
  writeHead(status: number, headers: string[]): { end(body: string | Uint8Array, callback?: () => void): unknown };
  destroy(): unknown;
  readonly headersSent: boolean;
}

/** What the router needs of a request: the node adapter and the web-standard handler both give it. */
export interface RouterInput {
  url: string;
  pathname?: string;
  protocol?: string;
  method: string;
  header(name: string): string | null;
  /** The body as text; null when it is over the limit, `timeout` when it stalled. */
  readText(limit: number): Promise<string | null | "timeout">;
  /** The peer's address where the adapter knows it (node's socket); absent in process. */
  peer?: string | null;
  request(): Request;
}

export type Core = (input: RouterInput) => Promise<Out>;

/** Where a handler made by `createHandler` keeps its core, for the node adapter's fast path. */
export const CORE = Symbol.for("collab-rest-codegen.server.core");

export interface NodeListenerOptions {
  maxBodyBytes?: number;
  /** A body that has not arrived after this many ms is answered as an error and the connection closed. Default 30 s. */
  bodyTimeoutMs?: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Node's Buffer where there is one (this adapter runs on Node): measuring and joining bytes without copies. */
const NodeBuffer = (globalThis as { Buffer?: { byteLength(s: string): number; concat(c: Uint8Array[], n: number): { toString(e: "utf8"): string } } }).Buffer;
const byteLength = (s: string): number => (NodeBuffer ? NodeBuffer.byteLength(s) : encoder.encode(s).byteLength);

function text(chunks: Uint8Array[], size: number): string {
  if (NodeBuffer) return NodeBuffer.concat(chunks, size).toString("utf8");
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return decoder.decode(all);
}

export function toNodeListener(
  handler: ((request: Request) => Promise<Response>) & { [CORE]?: Core },
  options: NodeListenerOptions = {},
): (req: NodeRequestLike, res: NodeResponseLike) => void {
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? 30_000;
  const core = handler[CORE];
  // Stalled bodies are found by one sweep, not a timer per request (a timer per request cost a tenth of the
  // router's time per call): every read in flight, with when it started; the sweep runs while there are any.
  const reading = new Map<() => void, number>();
  let sweep: ReturnType<typeof setInterval> | undefined;
  const watch = (onStall: () => void): (() => void) => {
    reading.set(onStall, Date.now());
    if (!sweep) {
      sweep = setInterval(() => {
        const limit = Date.now() - bodyTimeoutMs;
        for (const [stalled, since] of reading) if (since <= limit) stalled();
        if (reading.size === 0 && sweep) {
          clearInterval(sweep);
          sweep = undefined;
        }
      }, Math.max(10, Math.min(1000, bodyTimeoutMs / 4)));
      (sweep as { unref?: () => void }).unref?.();
    }
    return () => reading.delete(onStall);
  };
  return (req, res) => {
    const https = Boolean(req.socket && (req.socket as { encrypted?: boolean }).encrypted);
    const host = req.headers.host;
    const url = requestUrl(https ? "https" : "http", Array.isArray(host) ? host.join(",") : host, req.url ?? "/");
    const method = req.method ?? "GET";
    // Set when the body was not read whole: the connection is closed after the answer, not reused.
    let abandoned = false;
    let bodyPromise: Promise<string | null | "timeout"> | undefined;
    const readText = (limit: number) =>
      (bodyPromise ??= new Promise((resolve) => {
        const declared = Number(req.headers["content-length"] ?? "NaN");
        // A declared length over the limit is answered at once: waiting for a body that may never come held
        // connections open.
        if (Number.isFinite(declared) && declared > limit) {
          abandoned = true;
          resolve(null);
          return;
        }
        const chunks: Uint8Array[] = [];
        let size = 0;
        let done = false;
        const finish = (value: string | null | "timeout") => {
          if (done) return;
          done = true;
          unwatch();
          resolve(value);
        };
        const unwatch = watch(() => {
          abandoned = true;
          finish("timeout");
        });
        req.on("data", (c) => {
          size += c.byteLength;
          if (size > limit) {
            abandoned = true;
            finish(null);
          } else chunks.push(c);
        });
        req.on("end", () => finish(text(chunks, size)));
        req.on("error", () => finish(null));
      }));
    // A string body goes out in one write with the head; a Buffer would make two (writev).
    const send = (out: Out) => {
      const head: string[] = [];
      for (const k in out.headers) head.push(k, out.headers[k] ?? "");
      head.push("Content-Length", String(byteLength(out.body)));
      if (abandoned) head.push("Connection", "close");
      try {
        res.writeHead(out.status, head).end(out.body, abandoned ? () => req.destroy() : undefined);
      } catch {
        // A status node refuses (a handler of a plain web handler gave one): never an unhandled rejection that
        // ends the process; the connection is dropped as for a handler that throws.
        res.destroy();
      }
    };
    // The router's core answers every request itself; this is for a plain web handler that throws: the
    // connection is dropped rather than answered with codes this adapter does not know.
    const fallback = () => res.destroy();
    req.on("error", () => res.destroy());
    if (core) {
      let made: Request | undefined;
      const q = (req.url ?? "/").indexOf("?");
      core({
        url,
        pathname: q < 0 ? (req.url ?? "/") : (req.url ?? "/").slice(0, q),
        protocol: https ? "https:" : "http:",
        method,
        peer: (req.socket as { remoteAddress?: string } | undefined)?.remoteAddress ?? null,
        header: (name) => {
          const v = req.headers[name];
          return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
        },
        readText: (limit) => readText(Math.min(limit, maxBodyBytes)),
        request: () =>
          (made ??= new Request(url, {
            method,
            headers: Object.entries(req.headers).flatMap(([k, v]): Array<[string, string]> =>
              v === undefined ? [] : Array.isArray(v) ? v.map((x): [string, string] => [k, x]) : [[k, v]],
            ),
          })),
      })
        .then(send, fallback)
        .catch(fallback);
      return;
    }
    readText(maxBodyBytes).then(async (text) => {
      try {
        const headers = new Headers();
        for (const [k, v] of Object.entries(req.headers)) {
          if (Array.isArray(v)) for (const x of v) headers.append(k, x);
          else if (v !== undefined) headers.set(k, v);
        }
        const over = text === null || text === "timeout";
        if (over) headers.delete("content-length");
        const body = method === "GET" || method === "HEAD" ? undefined : over ? new Uint8Array(maxBodyBytes + 1) : text;
        const response = await handler(new Request(url, { method, headers, body }));
        const h: Record<string, string> = {};
        response.headers.forEach((v, k) => {
          h[k] = v;
        });
        send({ status: response.status, headers: h, body: await response.text() });
      } catch {
        fallback();
      }
    });
  };
}

/**
 * A request's URL for a fetch `Request`: its Host header's, else `localhost`'s where that header is no host a URL
 * takes (`x:99999`, `a b`, `[::1`), as when there is none. Node's parser passes such a header on, and `new Request`
 * then threw in a handler that read `context.request`: a 500 for a header the routing never reads.
 */
function requestUrl(scheme: string, host: string | undefined, path: string): string {
  const url = `${scheme}://${host ?? "localhost"}${path}`;
  if (URL.canParse(url)) return url;
  const local = `${scheme}://localhost${path}`;
  return URL.canParse(local) ? local : `${scheme}://localhost/`;
}
