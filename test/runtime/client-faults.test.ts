import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import data from "../../output/client/methods.js";
import type { ClientData } from "../../runtime/shared/data.js";
import { ApiError } from "../../runtime/client/errors.js";
import { type ClientOptions, createRuntime } from "../../runtime/client/runtime.js";
import { TestServer } from "../support/https.js";

/**
 * Issue 9, the client: each network fault against a real server on 127.0.0.1. Each test asserts what the caller
 * gets, how many attempts were made, that the whole call stayed within its caps, and that no credential is in
 * any message, stack or cause. Hang guards only; no timing assertion beyond the caps.
 */
const CODE = "hookS3cretC0de42";
const TOKEN = "t0kenS3cretValue99";

type Respond = (req: IncomingMessage, res: ServerResponse, body: string) => void;

class Loopback {
  hits = 0;
  bodies: string[] = [];
  urls: string[] = [];
  respond: Respond = (_q, res) => res.writeHead(500).end();
  private constructor(readonly server: Server) {}
  static async start(): Promise<Loopback> {
    let self: Loopback | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        if (!self) return;
        self.hits++;
        self.urls.push(req.url ?? "");
        const body = Buffer.concat(chunks).toString("utf8");
        self.bodies.push(body);
        self.respond(req, res, body);
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    self = new Loopback(server);
    return self;
  }
  get base(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  reset(): void {
    this.hits = 0;
    this.bodies = [];
    this.urls = [];
  }
  close(): void {
    this.server.closeAllConnections();
    this.server.close();
  }
}

let api: Loopback;
let other: Loopback;
beforeAll(async () => {
  api = await Loopback.start();
  other = await Loopback.start();
});
afterAll(() => {
  api.close();
  other.close();
});
afterEach(() => {
  api.reset();
  other.reset();
});

const TIME = { start: 1, finish: 1, duration: 0, processing: 0, date_start: "", date_finish: "", operating: 0, operating_reset_at: 1 };
const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { "Content-Type": "application/json", ...headers }).end(JSON.stringify(body));

function client(auth: "webhook" | "token", extra: Partial<ClientOptions> = {}) {
  return createRuntime(
    {
      baseUrl: api.base,
      allowInsecureHttp: true,
      auth: auth === "webhook" ? { userId: 7, code: CODE } : { accessToken: TOKEN },
      retry: { baseDelayMs: 5, maxDelayMs: 20, maxTotalMs: 3_000 },
      ...extra,
    },
    data as ClientData,
  );
}

/** The error of a call, with the time it took; it must be an ApiError. */
async function failure(p: Promise<unknown>): Promise<{ error: ApiError; ms: number }> {
  const started = performance.now();
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return { error: err as ApiError, ms: performance.now() - started };
  }
  throw new Error("the call did not fail");
}

/** No credential anywhere a log may take it from. */
function expectNoSecret(err: unknown): void {
  const seen: string[] = [];
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const x = e as { message?: string; stack?: string; code?: string; description?: string };
    seen.push(String(x.message), String(x.stack), String(x.code), String(x.description), JSON.stringify(e));
  }
  for (const text of seen) {
    expect(text).not.toContain(CODE);
    expect(text).not.toContain(TOKEN);
  }
}

describe("redirects carry no credential anywhere", () => {
  it.each([307, 308, 301, 302])("a %i to another origin: that host sees nothing; REDIRECT with the host, one attempt", async (status) => {
    api.respond = (_q, res) => res.writeHead(status, { Location: `${other.base}/rest/7/${CODE}/user.current` }).end();
    for (const kind of ["webhook", "token"] as const) {
      const { error } = await failure(client(kind).send("user.current", "legacy", { x: 1 }));
      expect(error).toMatchObject({ name: "TransportError", code: "REDIRECT", status });
      expect(error.message).toContain(`to http://127.0.0.1:${(other.server.address() as AddressInfo).port}`);
      expectNoSecret(error);
    }
    expect(api.hits).toBe(2);
    expect(other.hits).toBe(0);
  });

  it("a 307 from https to http:// on the same host is refused: the webhook code never goes out in plain text", async () => {
    const tls = await TestServer.start();
    try {
      tls.handler = (_r, res) => {
        res.writeHead(307, { Location: `${tls.baseUrl.replace("https:", "http:")}/rest/7/x/user.current` }).end();
      };
      const rt = createRuntime({ baseUrl: tls.baseUrl, auth: { userId: 7, code: CODE }, fetch: tls.fetch(), redirects: "same-origin" }, data as ClientData);
      const { error } = await failure(rt.send("user.current", "legacy"));
      expect(error).toMatchObject({ code: "REDIRECT", status: 307 });
      expectNoSecret(error);
      expect(tls.requests).toHaveLength(1);
    } finally {
      tls.close();
    }
  });

  it("redirects: same-origin follows a redirect that stays on the origin", async () => {
    api.respond = (req, res) => {
      if (req.url?.endsWith("user.current")) res.writeHead(307, { Location: "/moved" }).end();
      else json(res, 200, { result: { ID: "1" }, time: TIME });
    };
    const r = await client("webhook", { redirects: "same-origin" }).send("user.current", "legacy");
    expect(r.result).toEqual({ ID: "1" });
    expect(api.urls).toEqual([`/rest/7/${CODE}/user.current`, "/moved"]);
  });
});

describe("network faults become the client's errors, retried only when safe to repeat", () => {
  it("a reset connection: TransportError NETWORK_ERROR; a legacy change call is not repeated", async () => {
    api.respond = (req) => req.socket.destroy();
    const { error } = await failure(client("token").send("task.comment.add", "legacy", { TASKID: 1 }));
    expect(error).toMatchObject({ name: "TransportError", code: "NETWORK_ERROR", status: 0, unclear: true });
    expect(error.cause).toBeInstanceOf(Error);
    expectNoSecret(error);
    expect(api.hits).toBe(1);
  });

  it("a reset connection: a 3.0 call with an Idempotency-Key is repeated, with the same key, up to the cap", async () => {
    api.respond = (req) => req.socket.destroy();
    const { error } = await failure(client("token").send("tasks.task.add", "v3", { fields: { title: "T" } }, { idempotencyKey: "k-1" }));
    expect(error.code).toBe("NETWORK_ERROR");
    expect(api.hits).toBe(4);
  });

  it("a method the caller marks safe is repeated; the next answer is taken", async () => {
    let n = 0;
    api.respond = (req, res) => (n++ === 0 ? req.socket.destroy() : json(res, 200, { result: { ID: "1" }, time: TIME }));
    const r = await client("webhook", { safeToRepeat: { legacy: { "user.current": true } } }).send("user.current", "legacy");
    expect(r).toMatchObject({ result: { ID: "1" }, attempts: 2 });
  });

  it("an HTML 502: ERROR_UNEXPECTED_ANSWER; repeated only when safe", async () => {
    api.respond = (_q, res) => res.writeHead(502, { "Content-Type": "text/html" }).end("<html>Bad gateway</html>");
    const once = await failure(client("webhook").send("user.current", "legacy"));
    expect(once.error).toMatchObject({ code: "ERROR_UNEXPECTED_ANSWER", status: 502, unclear: true });
    expect(api.hits).toBe(1);
    api.reset();
    await failure(client("webhook", { safeToRepeat: { legacy: { "user.current": true } } }).send("user.current", "legacy"));
    expect(api.hits).toBe(4);
  });

  it("truncated JSON: the connection ends short of Content-Length", async () => {
    api.respond = (_q, res) => {
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": "200" });
      res.write('{"result": {"ID": "1"');
      res.socket?.destroy();
    };
    const { error } = await failure(client("webhook").send("user.current", "legacy"));
    expect(["NETWORK_ERROR", "ERROR_UNEXPECTED_ANSWER"]).toContain(error.code);
    expect(error.unclear).toBe(true);
    expect(api.hits).toBe(1);
    expectNoSecret(error);
  });

  it("a 200 with an error body is the API's error, not a result", async () => {
    api.respond = (_q, res) => json(res, 200, { error: "ERROR_CORE", error_description: `failed for ${CODE}` });
    const { error } = await failure(client("webhook").send("user.current", "legacy"));
    expect(error).toMatchObject({ code: "ERROR_CORE", status: 200, description: "failed for <redacted>" });
    expectNoSecret(error);
  });

  it("a time-out per attempt: TIMEOUT, within the call's cap", async () => {
    api.respond = () => undefined;
    const { error, ms } = await failure(client("webhook", { timeoutMs: 150 }).send("user.current", "legacy"));
    expect(error).toMatchObject({ name: "TransportError", code: "TIMEOUT" });
    expect(api.hits).toBe(1);
    expect(ms).toBeLessThan(3_000);
  });

  it("timeoutMs: 0 sends without a time-out: the answer is waited for", async () => {
    api.respond = (_q, res) => setTimeout(() => json(res, 200, { result: 1, time: TIME }), 200);
    const r = await client("webhook", { timeoutMs: 0, retry: { maxTotalMs: 50 } }).send("user.current", "legacy");
    expect(r.result).toBe(1);
  });

  it("maxTotalMs bounds a stalled answer: headers sent, the body never ends", async () => {
    api.respond = (_q, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.write('{"result":');
    };
    const { error, ms } = await failure(client("webhook", { timeoutMs: 60_000, retry: { maxTotalMs: 300 } }).send("user.current", "legacy"));
    expect(error.code).toBe("TIMEOUT");
    expect(ms).toBeLessThan(3_000);
  });

  it("an answer over the size cap is refused without buffering it, with or without Content-Length", async () => {
    const big = JSON.stringify({ result: "x".repeat(5_000), time: TIME });
    api.respond = (_q, res) => res.writeHead(200, { "Content-Type": "application/json" }).end(big);
    const chunked = await failure(client("webhook", { maxResponseBytes: 1_000 }).send("user.current", "legacy"));
    expect(chunked.error).toMatchObject({ code: "RESPONSE_TOO_LARGE", status: 200 });
    api.respond = (_q, res) => res.writeHead(200, { "Content-Type": "application/json", "Content-Length": String(big.length) }).end(big);
    const declared = await failure(client("webhook", { maxResponseBytes: 1_000 }).send("user.current", "legacy"));
    expect(declared.error.code).toBe("RESPONSE_TOO_LARGE");
  });
});

describe("backoff honours the server", () => {
  it("Retry-After beyond the call's budget fails at once with retryAt (no wait)", async () => {
    api.respond = (_q, res) => json(res, 503, { error: "QUERY_LIMIT_EXCEEDED", error_description: "" }, { "Retry-After": "30" });
    const { error, ms } = await failure(client("webhook").send("user.current", "legacy"));
    expect(error.code).toBe("QUERY_LIMIT_EXCEEDED");
    expect(error.retryAt).toBeGreaterThan(Date.now() + 20_000);
    expect(api.hits).toBe(1);
    expect(ms).toBeLessThan(2_000);
  });

  it("Retry-After within the budget is waited", async () => {
    let n = 0;
    api.respond = (_q, res) =>
      n++ === 0 ? json(res, 503, { error: "QUERY_LIMIT_EXCEEDED", error_description: "" }, { "Retry-After": "0" }) : json(res, 200, { result: 1, time: TIME });
    const delays: number[] = [];
    const r = await client("webhook", { onRetry: (e) => delays.push(e.delayMs) }).send("user.current", "legacy");
    expect(r.attempts).toBe(2);
    expect(delays).toHaveLength(1);
  });

  it("OPERATION_TIME_LIMIT with a reset already past holds the method a minute (limits.md), not a busy loop: past the budget it fails at once", async () => {
    api.respond = (_q, res) => json(res, 429, { error: "OPERATION_TIME_LIMIT", error_description: "", time: { ...TIME, operating_reset_at: 1 } });
    const delays: number[] = [];
    const before = Date.now();
    const c = client("webhook", { retry: { baseDelayMs: 40, maxTotalMs: 1_000 }, onRetry: (e) => delays.push(e.delayMs) });
    const { error } = await failure(c.send("user.current", "legacy"));
    expect(api.hits).toBe(1);
    expect(delays).toEqual([]);
    expect(error.retryAt).toBeGreaterThanOrEqual(before + 60_000);
    // The hold stands for the next call of the method: it fails without sending.
    await failure(c.send("user.current", "legacy"));
    expect(api.hits).toBe(1);
  });
});
