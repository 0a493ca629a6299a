import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { Agent as HttpsAgent } from "node:https";
import { tmpdir } from "node:os";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { AjaxError, ApiVersion, B24Hook } from "@bitrix24/b24jssdk";
import { createClient } from "collab-platform-api-client";
import { Agent, fetch as undiciFetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { beyondLoopback, redactPath } from "../../generator/cli/mock.js";
import { oneLine } from "../../generator/util/redact.js";
import { route } from "../../runtime/server/route.js";
import { parseFormBody } from "../../runtime/server/events.js";
import { ROOT } from "../helpers.js";
import { certificate, trustingFetch } from "../support/https.js";

/**
 * `collab-rest-codegen mock` as a process (issue 15): start, stop, `--port 0`, `--http`, TLS, a bad seed; then the
 * official JS SDK and the generated client against it, with no handler code. Request counts come from the mock's
 * own log (one stdout line a request), so an ignored cursor fails instead of looping.
 */

const BIN = join(ROOT, "dist/generator/cli/main.js");
const SPEC = join(ROOT, "spec-source/collaboration-platform-api.md");
const work = mkdtempSync(join(tmpdir(), "crc-mockcli-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Running {
  url: string;
  proc: ChildProcess;
  out: string[];
  err: () => string;
  exited: Promise<number | null>;
  /** Request lines of the log for a method, since `since`. */
  requests(method: string, since?: number): number;
  /** Waits until the log holds every request answered so far: a marker request's line comes after theirs. */
  flush(f: typeof fetch): Promise<void>;
}

function start(args: string[], env: Record<string, string> = {}): Promise<Running> {
  const proc = spawn(process.execPath, [BIN, "mock", "--spec", SPEC, "--port", "0", ...args], { cwd: work, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  const out: string[] = [];
  let err = "";
  let buffer = "";
  const exited = new Promise<number | null>((r) => proc.on("exit", (code) => r(code)));
  proc.stderr?.on("data", (c: Buffer) => (err += c.toString()));
  return new Promise((resolve, reject) => {
    proc.stdout?.on("data", (c: Buffer) => {
      buffer += c.toString();
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const l of lines) {
        out.push(l);
        const url = /^listening on (\S+)$/.exec(l)?.[1];
        if (url && out.length === 1) {
          let markers = 0;
          const flush = async (f: typeof fetch) => {
            const marker = `flush.marker${++markers}`;
            await f(`${url}/rest/1/x/${marker}`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
            for (let i = 0; i < 200 && !out.some((x) => x.includes(`/${marker} `)); i++) await new Promise((r) => setTimeout(r, 10));
          };
          resolve({ url, proc, out, err: () => err, exited, flush, requests: (m, since = 0) => out.slice(since).filter((x) => new RegExp(`/${m.replace(/\./g, "\\.")}[ ?]`).test(x)).length });
        }
      }
    });
    void exited.then((code) => reject(new Error(`the mock exited (${code}): ${err}`)));
  });
}

const call = (f: typeof fetch, url: string, body: unknown = {}) => f(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("collab-rest-codegen mock", () => {
  it("--http: the first line says where; one line a request with the webhook code out; SIGTERM stops it", async () => {
    const m = await start(["--http"]);
    expect(m.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(m.err()).toContain("the platform itself refuses HTTP");
    expect(m.err()).not.toContain("beyond loopback");
    const r = await call(fetch, `${m.url}/rest/7/s3cretHookC0de/user.current`);
    expect(r.status).toBe(200);
    expect(((await r.json()) as { result: { ID: string } }).result.ID).toMatch(/^\d+$/);
    await call(fetch, `${m.url}/rest/user.current?auth=s3cretT0ken`);
    // Every spelling the router answers is logged as it reads it; what is no address is not logged at all.
    for (const path of ["//rest/1/s3cretA/user.current", "/rest//1/s3cretB/user.current", "/%72est/1/s3cretC/user.current", "/rest/1/s3cretD", "/rest/1/x/user.current?access_token=s3cretE&bx=1"]) {
      await call(fetch, `${m.url}${path}`);
    }
    await m.flush(fetch);
    m.proc.kill("SIGTERM");
    expect(await m.exited).toBe(0);
    expect(m.out[1]).toMatch(/^POST \/rest\/7\/\*\*\*\/user\.current 200 \d+\.\d ms$/);
    expect(m.out[2]).toMatch(/^POST \/rest\/user\.current\?auth=\*\*\* 401 \d+\.\d ms$/);
    expect(m.out.slice(3, 8).map((l) => l.replace(/ \d+\.\d ms$/, ""))).toEqual([
      "POST /rest/1/***/user.current 200",
      "POST /rest/1/***/user.current 200",
      "POST /rest/1/***/user.current 200",
      "POST (not an API address) 404",
      "POST /rest/1/***/user.current?access_token=***&bx=1 200",
    ]);
    expect(m.out.join("\n") + m.err()).not.toMatch(/s3cret/);
    // Two state rows are not calls; the mock says so at start, with their lines.
    expect(m.err()).toMatch(/collaboration-platform-api\.md:137: state row not modelled/);
  });

  it("a mock listening beyond loopback says so (it takes any credentials as an administrator's); loopback is quiet", () => {
    expect(["0.0.0.0", "::", "192.168.1.5", "example.com", "127.0.0.1.example.com"].filter(beyondLoopback)).toHaveLength(5);
    expect(["127.0.0.1", "127.1.2.3", "::1", "[::1]", "::ffff:127.0.0.1", "localhost", "LOCALHOST"].filter(beyondLoopback)).toEqual([]);
  });

  it("the log reads a target as the router does: raw path to `?`, the code out in every spelling", () => {
    const shown = (t: string) => redactPath(t, route);
    expect(shown("/rest/1/s3cret/user.current")).toBe("/rest/1/***/user.current");
    expect(shown("/rest/u\\../s3cret/m\\..")).toBe("/rest/u%5C../***/m%5C..");
    expect(shown("//rest//api/1/s3cret/tasks.task.get?auth=s3cret&x=1")).toBe("/rest/api/1/***/tasks.task.get?auth=***&x=1");
    expect(shown("http://h/rest/1/s3cret/user.current")).toBe("(not an API address)");
    expect(shown("/rest/1/s3cret")).toBe("(not an API address)");
  });

  it("each log entry is one line: control characters and line separators escaped, the rest as it is", () => {
    expect(oneLine("warn: event.bind: ONX\nnotice: forged\r\u2028\u0000\u007f")).toBe("warn: event.bind: ONX\\u000anotice: forged\\u000d\\u2028\\u0000\\u007f");
    expect(oneLine("warn: the handler https://h.example/é of ONX is kept")).toBe("warn: the handler https://h.example/é of ONX is kept");
  });

  it("a reader that closes the pipe after the first line ends the log, not the mock; the temporary package goes at exit", async () => {
    // A temporary folder of its own: other test files start mocks too.
    const own = mkdtempSync(join(work, "tmp-"));
    const m = await start(["--http"], { TMPDIR: own });
    expect(readdirSync(own).filter((n) => n.startsWith("crc-mock-"))).toHaveLength(1);
    m.proc.stdout?.destroy();
    for (let i = 0; i < 3; i++) expect((await call(fetch, `${m.url}/rest/1/c/user.current`)).status).toBe(200);
    // A closed terminal (SIGHUP) stops it as cleanly as SIGTERM.
    m.proc.kill("SIGHUP");
    expect(await m.exited).toBe(0);
    expect(readdirSync(own)).toEqual([]);
  });

  it("HTTPS by default with a certificate made at start; SIGINT stops it", async () => {
    const m = await start([]);
    expect(m.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const insecure = new Agent({ connect: { rejectUnauthorized: false } });
    const r = await undiciFetch(`${m.url}/rest/1/c0de/user.current`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}", dispatcher: insecure });
    expect(r.status).toBe(200);
    m.proc.kill("SIGINT");
    expect(await m.exited).toBe(0);
  });

  it("a bad seed is a clear error at its position, exit 3; bad flags exit 3", async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const p = spawn(process.execPath, [BIN, "mock", "--spec", SPEC, "--port", "0", ...args], { cwd: work });
        let stderr = "";
        p.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
        p.on("exit", (code) => resolve({ code, stderr }));
      });
    writeFileSync(join(work, "seed.yaml"), "webhooks:\n  - userId: one\n    code: abc\n    scopes: [task]\n");
    const typed = await run(["--seed", "seed.yaml"]);
    expect(typed.code).toBe(3);
    expect(typed.stderr).toContain("seed.yaml:2:13: error: the seed at webhooks.0.userId must be integer");
    writeFileSync(join(work, "seed.json"), '{\n  "records": {\n    "sale.paysystem.list": [1, ]\n  }\n');
    const broken = await run(["--seed", "seed.json"]);
    expect(broken.code).toBe(3);
    expect(broken.stderr).toMatch(/seed\.json:\d+:\d+: error: the seed file does not parse/);
    writeFileSync(join(work, "extra.json"), '{ "hooks": [] }');
    expect((await run(["--seed", "extra.json"])).stderr).toContain("extra.json:1:1: error: the seed must NOT have additional properties (hooks)");
    expect((await run(["--port", "99999"])).code).toBe(3);
    // A port in use is the user's problem, said in one line, no stack.
    const first = await start(["--http"]);
    const taken = await run(["--http", "--port", new URL(first.url).port]);
    expect(taken.code).toBe(3);
    expect(taken.stderr).toMatch(/cannot listen on 127\.0\.0\.1:\d+: EADDRINUSE/);
    expect(taken.stderr).not.toContain("internal error");
    first.proc.kill("SIGTERM");
    await first.exited;
    expect((await run(["--cert", "x.pem"])).stderr).toContain("--cert and --key go together");
    expect((await run(["--event-timeout", "soon"])).stderr).toContain("--event-timeout must be a number of milliseconds");
    expect((await run(["--event-host", "http://x/"])).stderr).toContain("--event-host takes a host name or address, not http://x/");
  });

  it("--docs serves the merged model and delivers a bound event to a loopback handler, its data made from the page (issue 29)", async () => {
    const got: string[] = [];
    const handler = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        got.push(body);
        res.end("ok");
      });
    });
    await new Promise<void>((ok) => handler.listen(0, "127.0.0.1", ok));
    const hook = `http://127.0.0.1:${(handler.address() as AddressInfo).port}/events`;
    const m = await start(["--http", "--docs", join(ROOT, "test/fixtures/reference-mini")]);
    try {
      // The reference's method is served beside the spec's; event.bind is an application's (a token in `auth`).
      expect((await call(fetch, `${m.url}/rest/1/c0de/shop.order.get`, { id: 1 })).status).toBe(200);
      expect(((await (await call(fetch, `${m.url}/rest/event.bind`, { event: "onShopOrderAdd", handler: hook, auth: "t0ken" })).json()) as { result: unknown }).result).toBe(true);
      await call(fetch, `${m.url}/rest/event.bind`, { event: "onShopOrderAdd", handler: "https://elsewhere.example/h", auth: "t0ken" });
      const r = await call(fetch, `${m.url}/_mock/events`, { event: "ONSHOPORDERADD" });
      expect(r.status).toBe(200);
      const report = (await r.json()) as { delivered: Array<{ status: number }>; skipped: Array<{ problem: string }> };
      expect(report.delivered.map((d) => d.status)).toEqual([200]);
      expect(report.skipped.map((s) => s.problem)).toEqual(["not on loopback, and no --event-host names it"]);
      // The page types data.FIELDS.ID as an integer: the mock's made value is one.
      expect(parseFormBody(got[0] ?? "")).toMatchObject({ event: "ONSHOPORDERADD", event_handler_id: "1", data: { FIELDS: { ID: expect.stringMatching(/^\d+$/) } }, auth: { application_token: "mock-application-token" } });
      await m.flush(fetch);
      expect(m.out.some((l) => /^POST \/_mock\/events 200 /.test(l))).toBe(true);
      expect(m.err()).toContain("the handler https://elsewhere.example/h of ONSHOPORDERADD is kept, but the mock will not deliver events to it");
    } finally {
      m.proc.kill("SIGTERM");
      await m.exited;
      handler.closeAllConnections();
      await new Promise((ok) => handler.close(ok));
    }
  }, 60_000);
});

describe("the official JS SDK against the mock process, no handler code", () => {
  const CODE = "sdkMockC0de";
  let m: Running;
  let ca = "";
  let sdkFetch: typeof fetch;
  beforeAll(async () => {
    const { key, cert } = await certificate();
    ca = cert;
    sdkFetch = trustingFetch(cert);
    writeFileSync(join(work, "key.pem"), key);
    writeFileSync(join(work, "cert.pem"), cert);
    writeFileSync(join(work, "sdk-seed.json"), JSON.stringify({ webhooks: [{ userId: 1, code: CODE, scopes: ["task", "user", "pay_system", "telephony"] }] }));
    m = await start(["--records", "120", "--seed", "sdk-seed.json", "--cert", "cert.pem", "--key", "key.pem", "--v3-batch"]);
  });
  afterAll(async () => {
    m.proc.kill("SIGTERM");
    await m.exited;
  });
  const FAST = { rateLimit: { burstLimit: 100_000, drainRate: 100_000, adaptiveEnabled: false }, adaptiveConfig: { enabled: false, thresholdPercent: 100, coefficient: 0, maxDelay: 0 }, maxRetries: 1, retryDelay: 10 };
  const hook = () => {
    const b24 = B24Hook.fromWebhookUrl(`${m.url}/rest/1/${CODE}/`, { restrictionParams: FAST });
    for (const v of [ApiVersion.v2, ApiVersion.v3]) b24.getHttpClient(v).ajaxClient.defaults.httpsAgent = new HttpsAgent({ ca });
    return b24;
  };

  it("plain calls and the spec's errors", async () => {
    const me = await hook().actions.v2.call.make({ method: "user.current" });
    expect(me.getData()?.result).toMatchObject({ ID: expect.stringMatching(/^\d+$/) });
    const missing = await hook().actions.v2.call.make({ method: "no.such.method" }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(AjaxError);
    expect(missing).toMatchObject({ code: "ERROR_METHOD_NOT_FOUND", status: 404 });
    const empty = await hook().actions.v2.call.make({ method: "telephony.externalCall.searchCrmEntities", params: {} }).catch((e: unknown) => e);
    expect(empty).toMatchObject({ code: "ERROR_CORE", status: 400, message: "PHONE_NUMBER is empty" });
  });

  it("callList, fetchList and callListMethod: all 120 records, three requests each", async () => {
    let since = m.out.length;
    const all = await hook().actions.v2.callList.make({ method: "sale.paysystem.list", params: { select: ["ID", "NAME"] }, idKey: "ID" });
    expect((all.getData() as Array<{ ID: string }>).map((r) => r.ID)).toEqual(Array.from({ length: 120 }, (_, i) => String(i + 1)));
    await m.flush(sdkFetch);
    expect(m.requests("sale.paysystem.list", since)).toBe(3);
    since = m.out.length;
    const ids: string[] = [];
    for await (const chunk of hook().actions.v2.fetchList.make({ method: "sale.paysystem.list", params: {}, idKey: "ID" })) ids.push(...(chunk as Array<{ ID: string }>).map((r) => r.ID));
    expect(ids).toHaveLength(120);
    await m.flush(sdkFetch);
    expect(m.requests("sale.paysystem.list", since)).toBeLessThanOrEqual(4);
    since = m.out.length;
    const listed = await hook().callListMethod("sale.paysystem.list", { select: ["ID"] });
    expect(listed.getData()).toHaveLength(120);
    await m.flush(sdkFetch);
    expect(m.requests("sale.paysystem.list", since)).toBe(3);
  });

  it("batch with a reference to an earlier result; a 3.0 call and a 3.0 batch", async () => {
    const r = await hook().actions.v2.batch.make({ calls: { me: ["user.current", {}], access: ["tasks.task.getaccess", { taskId: "$result[me][ID]" }] } });
    expect(r.isSuccess).toBe(true);
    expect(Object.keys(r.getData() as object)).toEqual(["me", "access"]);
    const v3 = await hook().actions.v3.call.make({ method: "tasks.task.get", params: { taskId: 3 } });
    expect(v3.getData()?.result).toMatchObject({ item: expect.any(Object) });
    const batch = await hook().actions.v3.batch.make({ calls: [["tasks.task.get", { taskId: 1 }], ["tasks.task.get", { taskId: 2 }]] });
    expect(batch.isSuccess).toBe(true);
    expect(batch.getData()).toHaveLength(2);
  });
});

describe("the generated client against the mock process", () => {
  let m: Running;
  let f: typeof fetch;
  beforeAll(async () => {
    const { key, cert } = await certificate();
    writeFileSync(join(work, "ckey.pem"), key);
    writeFileSync(join(work, "ccert.pem"), cert);
    f = trustingFetch(cert);
    m = await start(["--records", "120", "--cert", "ccert.pem", "--key", "ckey.pem"]);
  });
  afterAll(async () => {
    m.proc.kill("SIGTERM");
    await m.exited;
  });
  const client = () => createClient({ baseUrl: m.url, auth: { userId: 1, code: "anyC0de" }, fetch: f, throttle: false });

  it("paginate and all(): 120 records in three requests each", async () => {
    let since = m.out.length;
    const ids: string[] = [];
    for await (const p of client().paginate("sale.paysystem.list", {})) ids.push(String(p.ID));
    expect(ids).toEqual(Array.from({ length: 120 }, (_, i) => String(i + 1)));
    await m.flush(f);
    expect(m.requests("sale.paysystem.list", since)).toBe(3);
    since = m.out.length;
    const pages: number[] = [];
    for await (const page of client().all("sale.paysystem.list", { SELECT: ["ID"] })) pages.push(page.length);
    expect(pages).toEqual([50, 50, 20]);
    await m.flush(f);
    expect(m.requests("sale.paysystem.list", since)).toBe(3);
  });

  it("batch of 120 commands in three requests; idempotency: the same key is replayed", async () => {
    const since = m.out.length;
    const commands = Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`c${i}`, ["user.current"] as const]));
    const r = await client().batch(commands);
    expect(Object.values(r.outcomes).filter((o) => o?.ok)).toHaveLength(120);
    await m.flush(f);
    expect(m.requests("batch", since)).toBe(3);
    const app = createClient({ baseUrl: m.url, auth: { accessToken: "anyT0ken" }, fetch: f, throttle: false });
    const first = await app.v3.tasks.task.add.withResponse({ fields: { title: "t" } }, { idempotencyKey: "mock-key-1" });
    const again = await app.v3.tasks.task.add.withResponse({ fields: { title: "t" } }, { idempotencyKey: "mock-key-1" });
    expect(first.replayed).toBe(false);
    expect(again.replayed).toBe(true);
  });
});

describe("the official SDK against the TLS mock, trusting the certificate file the mock wrote (issue 25)", () => {
  it("NODE_EXTRA_CA_CERTS names the file from the mock's notice: B24Hook calls user.current, unchanged", async () => {
    const certFile = join(work, "trusted", "mock-cert.pem");
    const m = await start(["--cert-out", certFile]);
    try {
      const notice = /written to (\S+); trust it with NODE_EXTRA_CA_CERTS=(\S+),/.exec(m.err());
      expect(notice?.[1]).toBe(certFile);
      expect(readFileSync(certFile, "utf8")).toMatch(/^-----BEGIN CERTIFICATE-----/);
      expect(readFileSync(certFile, "utf8")).not.toMatch(/PRIVATE KEY/);
      // The SDK in a process of its own: node reads NODE_EXTRA_CA_CERTS when it starts.
      const script = `
        import { B24Hook } from "@bitrix24/b24jssdk";
        const b24 = B24Hook.fromWebhookUrl(${JSON.stringify(`${m.url}/rest/1/hookCodeForSdk1/`)}, { restrictionParams: { rateLimit: { burstLimit: 1000, drainRate: 1000, adaptiveEnabled: false }, maxRetries: 1, retryDelay: 10 } });
        const me = await b24.actions.v2.call.make({ method: "user.current" });
        console.log(JSON.stringify(me.getData()?.result ?? null));`;
      const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8", timeout: 60_000, env: { ...process.env, NODE_EXTRA_CA_CERTS: certFile } });
      expect(r.stderr).not.toMatch(/self[- ]signed|UNABLE_TO_VERIFY|certificate/i);
      expect(JSON.parse(r.stdout.trim().split("\n").at(-1) ?? "null")).toMatchObject({ ID: expect.stringMatching(/^\d+$/) });
    } finally {
      m.proc.kill("SIGTERM");
      await m.exited;
    }
  }, 90_000);
});
