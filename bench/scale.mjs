// Issue 16's side-by-side: every record of a list of 10,000 through the generated client's `all()` and through the
// platform's official SDK (@bitrix24/b24jssdk, pinned dev dependency), against the generated server over HTTPS on
// 127.0.0.1: requests made and wall time, medians. Both clients' request-rate limiters are off (the platform's 2 a
// second would make both wait the same 100 s); what differs is how each walks the list. `npm run bench -- scale [RUNS]`.
import { createServer } from "node:https";
import { Agent as HttpsAgent } from "node:https";
import { join } from "node:path";
import { ApiVersion, B24Hook } from "@bitrix24/b24jssdk";
import selfsigned from "selfsigned";
import { Agent, fetch as undiciFetch } from "undici";
import { median, printTable } from "./lib.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const CODE = "benchHookC0de";
const RECORDS = Array.from({ length: 10_000 }, (_, i) => ({ ID: String(i + 1), NAME: `Pay system ${i + 1}` }));
const SDK_FAST = {
  rateLimit: { burstLimit: 1_000_000, drainRate: 1_000_000, adaptiveEnabled: false },
  adaptiveConfig: { enabled: false, thresholdPercent: 100, coefficient: 0, maxDelay: 0 },
  maxRetries: 1,
  retryDelay: 10,
};

export async function benchScale({ runs = 5 } = {}) {
  const server = await import(join(ROOT, "output/server/index.js"));
  const { legacy: skeleton, v3 } = await import(join(ROOT, "output/server/skeleton/handlers.js")).catch(() => ({ legacy: {}, v3: {} }));
  let requests = 0;
  const legacy = {
    ...skeleton,
    // The list as the platform serves it: `>ID` in the filter, `start = -1` without a count, else pages by `start`.
    "sale.paysystem.list": async (p) => {
      requests++;
      const filter = p.FILTER ?? p.filter ?? {};
      const after = Number(filter[">ID"] ?? 0);
      const matching = after ? RECORDS.filter((r) => Number(r.ID) > after) : RECORDS;
      if (Number(p.start) === -1) return server.page(matching.slice(0, 50));
      return server.pageOf(matching, p.start);
    },
  };
  const authenticate = (c) => (c.kind === "webhook" && c.code === CODE ? { userId: 1, scopes: ["pay_system", "user"] } : { error: "INVALID_CREDENTIALS" });
  const pems = await selfsigned.generate([{ name: "commonName", value: "127.0.0.1" }], {
    keyType: "ec",
    extensions: [{ name: "subjectAltName", altNames: [{ type: 7, ip: "127.0.0.1" }] }],
  });
  const https = createServer({ key: pems.private, cert: pems.cert }, server.toNodeListener(server.createHandler({ legacy, v3 }, { authenticate })));
  await new Promise((r) => https.listen(0, "127.0.0.1", r));
  const base = `https://127.0.0.1:${https.address().port}`;
  try {
    const { createClient } = await import(join(ROOT, "output/client/index.js"));
    const agent = new Agent({ connect: { ca: pems.cert } });
    const fetchImpl = (input, init) => undiciFetch(input, { ...init, dispatcher: agent });
    const ours = createClient({ baseUrl: base, auth: { userId: 1, code: CODE }, fetch: fetchImpl, throttle: false });
    const sdk = () => {
      const b24 = B24Hook.fromWebhookUrl(`${base}/rest/1/${CODE}/`, { restrictionParams: SDK_FAST });
      for (const v of [ApiVersion.v2, ApiVersion.v3]) b24.getHttpClient(v).ajaxClient.defaults.httpsAgent = new HttpsAgent({ ca: pems.cert });
      return b24;
    };
    const ways = {
      "collab-rest-codegen all() (>ID cursor, start=-1)": async () => {
        let n = 0;
        for await (const page of ours.all("sale.paysystem.list")) n += page.length;
        return n;
      },
      "collab-rest-codegen all(cursor: false) (start, 4 in flight)": async () => {
        let n = 0;
        for await (const page of ours.all("sale.paysystem.list", {}, { cursor: false, concurrency: 4 })) n += page.length;
        return n;
      },
      "b24jssdk callListMethod (start, next)": async () => {
        const r = await sdk().callListMethod("sale.paysystem.list", {});
        return r.getData().length;
      },
      "b24jssdk actions.v2.fetchList (>ID cursor)": async () => {
        let n = 0;
        for await (const chunk of sdk().actions.v2.fetchList.make({ method: "sale.paysystem.list", params: {}, idKey: "ID" })) n += chunk.length;
        return n;
      },
    };
    const rows = [];
    const result = {};
    for (const [name, run] of Object.entries(ways)) {
      const times = [];
      let made = 0;
      let records = 0;
      for (let i = 0; i < runs; i++) {
        requests = 0;
        const t = process.hrtime.bigint();
        records = await run();
        times.push(Number(process.hrtime.bigint() - t) / 1e6);
        made = requests;
      }
      rows.push({ way: name, records, requests: made, "median ms": median(times).toFixed(0) });
      result[name] = { records, requests: made, medianMs: median(times) };
    }
    printTable(`Every record of a list of ${RECORDS.length} (generated server, HTTPS loopback, ${runs} runs each)`, rows);
    return result;
  } finally {
    await new Promise((r) => https.close(r));
  }
}
