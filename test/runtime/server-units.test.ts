import { describe, expect, it } from "vitest";
import data from "../../output/server/methods.js";
import type { MethodInfo, RuntimeType, ServerData } from "../../runtime/shared/data.js";
import { createMemoryIdempotencyStore } from "../../runtime/server/idempotency.js";
import { createLimiter } from "../../runtime/server/limiter.js";
import { fromQuery, withReferences } from "../../runtime/server/query.js";
import { own, route } from "../../runtime/server/route.js";
import { coerceFromQuery, forbiddenKey, typeOk, validate } from "../../runtime/server/validate.js";

/** Unit tests of the server runtime's parts, given/want tables (issue 13); the router itself is in server-router. */

const spec = data as ServerData;

describe("route: every addressing form of the spec", () => {
  it.each([
    ["/rest/7/c0de/user.current", { version: "legacy", method: "user.current", webhook: { userId: "7", code: "c0de" } }],
    ["/rest/user.current", { version: "legacy", method: "user.current", webhook: null }],
    ["/rest/user.current.json", { version: "legacy", method: "user.current.json", webhook: null }],
    ["/rest/api/7/c0de/tasks.task.add", { version: "v3", method: "tasks.task.add", webhook: { userId: "7", code: "c0de" } }],
    ["/rest/api/tasks.task.add", { version: "v3", method: "tasks.task.add", webhook: null }],
    ["/rest/7/c%2F0de/user.current", { version: "legacy", method: "user.current", webhook: { userId: "7", code: "c/0de" } }],
    ["/rest/7/%E0%A4%A/user.current", { version: "legacy", method: "user.current", webhook: { userId: "7", code: "%E0%A4%A" } }],
    ["/rest/", null],
    ["/other/user.current", null],
    ["/rest/a/b", null],
    ["/rest/api/1/2/3/4", null],
  ])("%s", (path, want) => {
    expect(route(path)).toEqual(want);
  });

  it.each(["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "isPrototypeOf"])("%s is no member of a method table", (name) => {
    expect(own(spec.legacy, name)).toBeUndefined();
    expect(own(spec.v3, name)).toBeUndefined();
    expect(own({ [name]: 1 }, name)).toBe(1);
  });
});

describe("validate: types, required, enums, nested members, at least one, call forms", () => {
  const info = (params: MethodInfo["params"], extra: Partial<MethodInfo> = {}): MethodInfo => ({
    name: "m",
    described: true,
    scopes: null,
    applicationContextOnly: false,
    adminOnly: false,
    idempotencyKey: false,
    params,
    atLeastOne: [],
    callForms: [],
    ...extra,
  });
  const p = (name: string, type: RuntimeType, required = false) => ({ name, required, type });
  it.each([
    ["integer ok", info([p("id", { kind: "integer" })]), { id: 5 }, null],
    ["integer as a string", info([p("id", { kind: "integer" })]), { id: "5" }, { argument: "id", reason: "type" }],
    ["integer with a fraction", info([p("id", { kind: "integer" })]), { id: 1.5 }, { argument: "id", reason: "type" }],
    ["number ok", info([p("x", { kind: "number" })]), { x: 1.5 }, null],
    ["number infinite", info([p("x", { kind: "number" })]), { x: Number.POSITIVE_INFINITY }, { argument: "x", reason: "type" }],
    ["boolean", info([p("b", { kind: "boolean" })]), { b: "Y" }, { argument: "b", reason: "type" }],
    ["string", info([p("s", { kind: "string" })]), { s: 1 }, { argument: "s", reason: "type" }],
    ["required missing", info([p("id", { kind: "integer" }, true)]), {}, { argument: "id", reason: "missing" }],
    ["required empty string", info([p("id", { kind: "string" }, true)]), { id: "" }, { argument: "id", reason: "missing" }],
    ["enum", info([p("e", { kind: "string", enum: ["Y", "N"] })]), { e: "X" }, { argument: "e", reason: "value" }],
    ["null where not nullable", info([p("s", { kind: "string" })]), { s: null }, { argument: "s", reason: "type" }],
    ["null where nullable", info([p("s", { kind: "string", nullable: true })]), { s: null }, null],
    ["array items", info([p("a", { kind: "array", items: { kind: "integer" } })]), { a: [1, "2"] }, { argument: "a[1]", reason: "type" }],
    ["not an array", info([p("a", { kind: "array", items: { kind: "integer" } })]), { a: 1 }, { argument: "a", reason: "type" }],
    [
      "nested required member",
      info([p("fields", { kind: "object", members: [{ name: "title", required: true, type: { kind: "string" } }] })]),
      { fields: {} },
      { argument: "fields.title", reason: "missing" },
    ],
    [
      "nested member type",
      info([p("fields", { kind: "object", members: [{ name: "title", required: false, type: { kind: "string" } }] })]),
      { fields: { title: 1 } },
      { argument: "fields.title", reason: "type" },
    ],
    ["additional members", info([p("m", { kind: "object", members: [], additional: { kind: "boolean" } })]), { m: { a: true, b: 1 } }, { argument: "m.b", reason: "type" }],
    ["object given an array", info([p("o", { kind: "object", members: [] })]), { o: [] }, { argument: "o", reason: "type" }],
    ["union", info([p("u", { kind: "union", options: [{ kind: "integer" }, { kind: "string" }] })]), { u: true }, { argument: "u", reason: "type" }],
    ["ref to a shape", info([p("r", { kind: "ref", name: "Shape" })]), { r: { n: "x" } }, { argument: "r.n", reason: "type" }],
    ["unknown accepts anything", info([p("x", { kind: "unknown" })]), { x: { any: [1] } }, null],
    ["at least one of: none", info([p("a", { kind: "string" }), p("b", { kind: "string" })], { atLeastOne: [["a", "b"]] }), {}, { argument: "a, b", reason: "none-of" }],
    ["at least one of: one", info([p("a", { kind: "string" }), p("b", { kind: "string" })], { atLeastOne: [["a", "b"]] }), { b: "x" }, null],
    ["call forms: none", info([], { callForms: [["id"], ["code", "type"]] }), {}, { argument: "id | code+type", reason: "missing" }],
    // The spec does not make its call forms exclude each other (issue 14): two complete forms are taken.
    ["call forms: two", info([], { callForms: [["id"], ["code", "type"]] }), { id: 1, code: "c", type: "t" }, null],
    ["call forms: none complete", info([], { callForms: [["id"], ["code", "type"]] }), { code: "c" }, { argument: "id | code+type", reason: "missing" }],
    ["call forms: one", info([], { callForms: [["id"], ["code", "type"]] }), { code: "c", type: "t" }, null],
  ])("%s", (_name, method, params, want) => {
    const shapes: Record<string, RuntimeType> = { Shape: { kind: "object", members: [{ name: "n", required: false, type: { kind: "integer" } }] } };
    expect(validate(method, params as Record<string, unknown>, shapes)).toEqual(want);
  });

  it("a self-referencing shape does not recurse without end", () => {
    const shapes: Record<string, RuntimeType> = { Loop: { kind: "ref", name: "Loop" } };
    expect(typeOk({ kind: "ref", name: "Loop" }, 1, "x", shapes)).toBeNull();
    expect(typeOk({ kind: "integer" }, "1", "x", {})).toEqual({ argument: "x", reason: "type" });
  });

  it.each([
    [{ a: 1 }, null],
    [JSON.parse('{"__proto__": {"x": 1}}'), "__proto__"],
    [{ a: [{ constructor: 1 }] }, "constructor"],
    [{ a: { b: { prototype: 1 } } }, "prototype"],
  ])("forbiddenKey(%j) → %j", (value, want) => {
    expect(forbiddenKey(value)).toBe(want);
  });
});

describe("query strings of batch commands", () => {
  it.each([
    ["id=5&name=a%20b", { id: "5", name: "a b" }],
    ["fields[TITLE]=T&fields[N][]=1&fields[N][]=2", { fields: { TITLE: "T", N: ["1", "2"] } }],
    ["a[]=x&a[]=y", { a: ["x", "y"] }],
    ["flag", { flag: "" }],
    ["__proto__[x]=1&constructor=2&ok=3", { ok: "3" }],
    ["bad=%E0%A4%A&ok=1", { ok: "1" }],
    ["a+b=c+d", { "a b": "c d" }],
    ["", {}],
  ])("fromQuery(%j)", (q, want) => {
    expect(fromQuery(q)).toEqual(want);
  });

  it("parameters from a query take their declared types where they read as such", () => {
    const method = spec.legacy["tasks.task.getaccess"] as MethodInfo;
    expect(coerceFromQuery(method, { taskId: "8017", users: { 0: "1", 1: "2" } }, spec.shapes)).toEqual({ taskId: 8017, users: ["1", "2"] });
    expect(coerceFromQuery(method, { taskId: "abc" }, spec.shapes)).toEqual({ taskId: "abc" });
  });
});

describe("idempotency store", () => {
  const rec = (n: number) => ({ bodyHash: `h${n}`, body: `b${n}` });
  it("drops a record after its time to live", async () => {
    let t = 0;
    const store = createMemoryIdempotencyStore({ now: () => t });
    await store.set("k", rec(1), 1000, "a");
    t = 999;
    expect(await store.get("k")).toEqual(rec(1));
    t = 1000;
    expect(await store.get("k")).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it("expired records go first when new ones come", async () => {
    let t = 0;
    const store = createMemoryIdempotencyStore({ now: () => t, maxEntries: 10 });
    for (let i = 0; i < 5; i++) await store.set(`old${i}`, rec(i), 100, "a");
    t = 200;
    await store.set("new", rec(9), 100, "a");
    expect(store.size).toBe(1);
    expect(store.stats().evictions).toEqual({ callerShare: 0, capacity: 0, tooLarge: 0 });
  });

  it("one caller's fresh keys never evict another caller's records (issue 9: the handler ran again)", async () => {
    const events: string[] = [];
    const store = createMemoryIdempotencyStore({ maxEntries: 2, onEvict: (e) => events.push(`${e.scope}:${e.reason}`) });
    await store.set("A1", rec(1), 60_000, "A");
    await store.set("B1", rec(2), 60_000, "B");
    await store.set("B2", rec(3), 60_000, "B");
    expect(await store.get("A1")).toEqual(rec(1));
    expect(await store.get("B1")).toBeUndefined();
    expect(events).toEqual(["B:capacity"]);
    expect(store.stats()).toMatchObject({ size: 2, callers: 2, evictions: { callerShare: 0, capacity: 1 } });
  });

  it("a caller past its own share loses its own oldest", async () => {
    const store = createMemoryIdempotencyStore({ maxEntries: 100, maxEntriesPerCaller: 2 });
    for (let i = 0; i < 3; i++) await store.set(`A${i}`, rec(i), 60_000, "A");
    expect(await store.get("A0")).toBeUndefined();
    expect(await store.get("A2")).toEqual(rec(2));
    expect(store.stats().evictions.callerShare).toBe(1);
  });

  it("soak: 200 callers within their share and one flooding caller; every in-share key within its TTL is replayed", async () => {
    let t = 0;
    const maxEntries = 1_000;
    const store = createMemoryIdempotencyStore({ maxEntries, maxEntriesPerCaller: 400, now: () => t });
    const callers = 200;
    const share = Math.floor(maxEntries / (callers + 1));
    for (let round = 0; round < 30; round++) {
      t += 60_000;
      for (let c = 0; c < callers; c++) await store.set(`c${c}:${round}`, rec(round), 24 * 3_600_000, `caller${c}`);
      for (let f = 0; f < 300; f++) await store.set(`flood:${round}:${f}`, rec(f), 24 * 3_600_000, "flooder");
      // Every caller's latest `share` keys are there.
      for (let c = 0; c < callers; c += 17) {
        for (let back = 0; back < Math.min(share, round + 1); back++) expect(await store.get(`c${c}:${round - back}`)).toEqual(rec(round - back));
      }
    }
    expect(store.size).toBeLessThanOrEqual(maxEntries);
  });
});

describe("limiter", () => {
  it("a request rate per caller: a burst, then refusals until tokens come back", () => {
    let t = 0;
    const limiter = createLimiter({ requestsPerSecond: 2, burst: 2, now: () => t });
    expect(limiter.admit("a", "m").allowed).toBe(true);
    expect(limiter.admit("a", "m").allowed).toBe(true);
    expect(limiter.admit("a", "m")).toMatchObject({ allowed: false, reason: "rate" });
    expect(limiter.admit("b", "m").allowed).toBe(true);
    // The inner calls of a batch take no token.
    expect(limiter.admit("a", "m", { rate: false }).allowed).toBe(true);
    t = 500;
    expect(limiter.admit("a", "m").allowed).toBe(true);
  });

  it("execution time per caller and method in a window, with its reset", () => {
    let t = 10_000;
    const limiter = createLimiter({ operatingLimitSeconds: 1, windowSeconds: 60, now: () => t });
    expect(limiter.account("a", "m", 0.6)).toEqual({ operating: 0.6, resetAt: 70 });
    expect(limiter.admit("a", "m").allowed).toBe(true);
    limiter.account("a", "m", 0.5);
    expect(limiter.admit("a", "m")).toEqual({ allowed: false, reason: "operating", operating: 1.1, resetAt: 70 });
    expect(limiter.admit("a", "other").allowed).toBe(true);
    t = 70_000;
    expect(limiter.usage("a", "m")).toEqual({ operating: 0, resetAt: 130 });
    expect(limiter.admit("a", "m").allowed).toBe(true);
  });

  it("without options nothing is limited; time is still accounted", () => {
    const limiter = createLimiter();
    for (let i = 0; i < 1000; i++) expect(limiter.admit("a", "m").allowed).toBe(true);
    expect(limiter.account("a", "m", 2).operating).toBe(2);
  });
});

describe("fromQuery and batch references stay linear on hostile input (issue 14's review)", () => {
  // Hang guards, ten times what these take (D6): before, `a[[[…` of 64 KB took seconds in a regular expression.
  it("brackets that never close, automatic indexes in an object, and PHP's bounds", () => {
    expect(fromQuery(`a${"[".repeat(500_000)}=1`)).toEqual({ a: "1" });
    const many = fromQuery(`a[x]=1${"&a[]=2".repeat(50_000)}`);
    expect(Object.keys(many.a as object)).toHaveLength(10_000);
    expect(fromQuery("a[5]=x&a[]=y")).toEqual({ a: { "5": "x", "6": "y" } });
    expect(fromQuery("a[b]junk[c]=1&d[]=1&d[]=2")).toEqual({ a: { b: "1" }, d: ["1", "2"] });
  }, 5_000);

  it("a value of unclosed references; at most 100 references a command; a copy of what a reference takes", () => {
    const hostile = "$result[".repeat(100_000);
    expect(withReferences(hostile, { a: 1 })).toBe(hostile);
    const results = { a: { n: 7, list: [{ ID: "3" }] } };
    const text = withReferences("$result[a][n]-".repeat(150), results) as string;
    expect(text.match(/7-/g)).toHaveLength(100);
    const copy = withReferences("$result[a][list]", results) as Array<{ ID: string }>;
    expect(copy).toEqual([{ ID: "3" }]);
    expect(copy).not.toBe(results.a.list);
  }, 5_000);
});
