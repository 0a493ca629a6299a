import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createEventHandler, parseFormBody } from "../../runtime/server/events.js";

/**
 * The server's event handler (issue 29 item 4): the form body the platform sends (api-reference/events/index.md:
 * `application/x-www-form-urlencoded`), the application token checked as events/safe-event-handlers.md says, and the
 * handler of the event's code called with the parsed request.
 */

const TOKEN = "51856fefc120afa4b628cc82d3935cce";
const form = (pairs: Array<[string, string]>) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
const dealAdd = (token = TOKEN) =>
  form([
    ["event", "ONCRMDEALADD"],
    ["event_handler_id", "185"],
    ["data[FIELDS][ID]", "6641"],
    ["ts", "1735374081"],
    ["auth[application_token]", token],
    ["auth[member_id]", "a223c6b3710f85df22e9377d6c4f7553"],
  ]);
const post = (body: string, headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" }) => new Request("https://app.example/events", { method: "POST", body, headers });

describe("parseFormBody", () => {
  it("reads PHP's bracket syntax into objects and arrays; every value a string", () => {
    expect(parseFormBody("event=ONCRMDEALADD&data%5BFIELDS%5D%5BID%5D=6641&a[]=x&a[]=y&b[0]=1&b[1]=2&c=a+b")).toEqual({
      event: "ONCRMDEALADD",
      data: { FIELDS: { ID: "6641" } },
      a: ["x", "y"],
      b: ["1", "2"],
      c: "a b",
    });
  });

  it("makes arrays of keys 0 to n-1 whatever their order, and keeps every pair when they are not", () => {
    expect(parseFormBody("a[1]=y&a[0]=x")).toEqual({ a: ["x", "y"] });
    expect(parseFormBody("a[0]=x&a[k]=y")).toEqual({ a: { 0: "x", k: "y" } });
    expect(parseFormBody("a[0]=x&a[2]=z")).toEqual({ a: { 0: "x", 2: "z" } });
    expect(parseFormBody("a[]=x&a[]=y&a[]=z")).toEqual({ a: ["x", "y", "z"] });
    expect(parseFormBody("a[0][b]=1&a[1][b]=2")).toEqual({ a: [{ b: "1" }, { b: "2" }] });
  });

  it("never writes a prototype's key, stops at 16 brackets, and keeps a bad escape as written", () => {
    const parsed = parseFormBody("__proto__[x]=1&a[constructor][prototype]=2&deep" + "[a]".repeat(20) + "=3&bad=%E0%A4%A&open[x=1");
    expect(Object.keys(parsed)).toEqual(["bad"]);
    expect(parsed["bad"]).toBe("%E0%A4%A");
    expect(({} as Record<string, unknown>)["x"]).toBeUndefined();
  });

  it("never throws, and costs one pass: any text, and 10,000 pairs at most", () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (s) => void parseFormBody(s)), { numRuns: 500 });
    const many = Array.from({ length: 20_000 }, (_, i) => `k${i}=${i}`).join("&");
    expect(Object.keys(parseFormBody(many))).toHaveLength(10_000);
    // `a[]` takes the next index from a count kept as keys are added (counting the keys at each one was quadratic:
    // 0.5 s for these 10,000), after written indexes and named keys alike.
    expect(parseFormBody("a[]=1&".repeat(10_000))["a"]).toHaveLength(10_000);
    expect(parseFormBody("a[][]=1&".repeat(3))["a"]).toEqual([["1"], ["1"], ["1"]]);
    expect(parseFormBody("a[0]=x&a[]=y&a[]=z")).toEqual({ a: ["x", "y", "z"] });
    // As PHP's parse_str: `a[]` is one past the largest integer key so far; named keys do not count, and a written
    // index is never overwritten (`data[1]=a&data[]=b` lost `a` when the next index was a count of keys).
    expect(parseFormBody("a[k]=x&a[]=y&a[k]=w")).toEqual({ a: { k: "w", 0: "y" } });
    expect(parseFormBody("data[1]=a&data[]=b")).toEqual({ data: { 1: "a", 2: "b" } });
    expect(parseFormBody("a[5]=x&a[2]=y&a[]=z")).toEqual({ a: { 5: "x", 2: "y", 6: "z" } });
    expect(parseFormBody("a[1000000000]=x&a[]=y")).toEqual({ a: { 1000000000: "x", 1000000001: "y" } });
  });
});

describe("createEventHandler", () => {
  it("calls the event's handler with the parsed request once the token matches", async () => {
    const got: unknown[] = [];
    const handle = createEventHandler<{ ONCRMDEALADD: { data: { FIELDS: { ID: number } } } }>({
      applicationToken: TOKEN,
      handlers: {
        ONCRMDEALADD: (p) => {
          // A documented integer arrives as the string it is on the wire.
          const id: string = p.data.FIELDS.ID;
          got.push(id, p.event, p.ts);
        },
      },
    });
    const r = await handle(post(dealAdd()));
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ event: "ONCRMDEALADD", handled: true });
    expect(got).toEqual(["6641", "ONCRMDEALADD", "1735374081"]);
  });

  it("refuses a wrong or missing token with 401 and calls no handler; a lookup by member_id works", async () => {
    let calls = 0;
    const handlers = { ONCRMDEALADD: () => void calls++ };
    const handle = createEventHandler({ applicationToken: TOKEN, handlers });
    expect((await handle(post(dealAdd("0".repeat(32))))).status).toBe(401);
    expect((await handle(post(dealAdd("short")))).status).toBe(401);
    expect((await handle(post(form([["event", "ONCRMDEALADD"]])))).status).toBe(401);
    expect(calls).toBe(0);
    const byPortal = createEventHandler({ applicationToken: async (member) => (member === "a223c6b3710f85df22e9377d6c4f7553" ? TOKEN : undefined), handlers });
    expect((await byPortal(post(dealAdd()))).status).toBe(200);
    expect(calls).toBe(1);
    // A lookup in a plain object answers `constructor` with a function and `__proto__` with an object; their text is
    // no token (the fault probe's bypass: 200 with `function Object() { [native code] }`).
    const tokens = JSON.parse(`{"a223c6b3710f85df22e9377d6c4f7553": "${TOKEN}"}`) as Record<string, string>;
    const inObject = createEventHandler({ applicationToken: (member) => tokens[member ?? ""], handlers });
    for (const [member, token] of [["constructor", String(Object)], ["__proto__", String({})], ["toString", String(Object.prototype.toString)], ["valueOf", String(Object.prototype.valueOf)]]) {
      const forged = form([["event", "ONCRMDEALADD"], ["auth[member_id]", member as string], ["auth[application_token]", token as string]]);
      expect((await inObject(post(forged))).status, member).toBe(401);
    }
    expect(calls).toBe(1);
    // Handlers a class gives as its methods are found, as before.
    class Handlers {
      ONCRMDEALADD() {
        calls++;
      }
    }
    const byClass = createEventHandler({ applicationToken: TOKEN, handlers: new Handlers() });
    expect(await (await byClass(post(dealAdd()))).json()).toEqual({ event: "ONCRMDEALADD", handled: true });
    expect(calls).toBe(2);
  });

  it("acknowledges an event with no handler; answers 400, 405, 413 and 500 where they belong, never throwing", async () => {
    const handle = createEventHandler({ applicationToken: TOKEN, handlers: { ONCRMDEALUPDATE: () => Promise.reject(new Error("boom")) }, maxBodyBytes: 2_000 });
    expect(await (await handle(post(dealAdd()))).json()).toEqual({ event: "ONCRMDEALADD", handled: false });
    // The token before anything else: without it, a body that is no event is a 401 too.
    expect((await handle(post("x=1"))).status).toBe(401);
    expect((await handle(post(form([["auth[application_token]", TOKEN]])))).status).toBe(400);
    // The platform sends events form-encoded only: a JSON body is no event, and gives no token.
    expect((await handle(post(JSON.stringify({ event: "ONCRMDEALADD", auth: { application_token: TOKEN } }), { "content-type": "application/json" }))).status).toBe(401);
    // A body whose stream fails (the client went away) is a 400, not a rejection.
    const failing = new ReadableStream<Uint8Array>({ pull: (c) => c.error(new Error("aborted")) });
    expect((await handle(new Request("https://app.example/events", { method: "POST", body: failing, duplex: "half" } as RequestInit))).status).toBe(400);
    // A token lookup that throws is a 500 with no detail, and no handler runs.
    const lookup = createEventHandler({ applicationToken: () => Promise.reject(new Error("db down")), handlers: {} });
    const failed = await lookup(post(dealAdd()));
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ error: "TOKEN_LOOKUP_FAILED" });
    expect((await handle(new Request("https://app.example/events"))).status).toBe(405);
    expect((await handle(post("a=" + "x".repeat(5_000)))).status).toBe(413);
    expect((await handle(post("a=" + "x".repeat(5_000), { "content-length": "10" }))).status).toBe(413);
    expect((await handle(post(dealAdd().replace("ONCRMDEALADD", "onCrmDealUpdate")))).status).toBe(500);
  });
});
