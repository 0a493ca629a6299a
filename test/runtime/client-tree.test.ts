import { describe, expect, it } from "vitest";
import clientData from "../../output/client/methods.js";
import type { ClientData } from "../../runtime/shared/data.js";
import { ApiError, createClientWith, is } from "../../runtime/client/index.js";

/** The client's surface: namespaces by Proxy, `call`/`request`, `.v3`, the `is` guards, refusals before sending. */
type Tree = Record<string, any>;

function fakeClient(answer: (url: string, body: Record<string, unknown>) => unknown, auth: object = { userId: 7, code: "hookC0de1234" }) {
  const seen: Array<{ url: string; body: Record<string, unknown> }> = [];
  const fetchImpl: typeof fetch = async (url, init) => {
    const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
    seen.push({ url: String(url), body });
    return new Response(JSON.stringify(answer(String(url), body)), { status: 200, headers: { "Content-Type": "application/json" } });
  };
  const client = createClientWith({ baseUrl: "https://p.example/", auth: auth as never, fetch: fetchImpl }, clientData as ClientData) as Tree;
  return { client, seen };
}

describe("the client's tree", () => {
  it("property steps name the method; calling resolves to the result; withResponse to the envelope", async () => {
    const { client, seen } = fakeClient(() => ({ result: { ok: 1 }, time: { start: 1 } }));
    expect(await client.tasks.task.getaccess({ taskId: 1 })).toEqual({ ok: 1 });
    const r = await client.tasks.task.getaccess.withResponse({ taskId: 2 });
    expect(r).toMatchObject({ result: { ok: 1 }, time: { start: 1 }, attempts: 1, replayed: false });
    expect(await client.call("user.current")).toEqual({ ok: 1 });
    expect((await client.request("user.current")).result).toEqual({ ok: 1 });
    expect(await client.v3.tasks.task.get({ taskId: 1 })).toEqual({ ok: 1 });
    expect(await client.v3.call("tasks.task.get", { taskId: 1 })).toEqual({ ok: 1 });
    expect((await client.v3.request("tasks.task.get", { taskId: 1 })).result).toEqual({ ok: 1 });
    expect(seen.map((s) => s.url)).toEqual([
      "https://p.example/rest/7/hookC0de1234/tasks.task.getaccess",
      "https://p.example/rest/7/hookC0de1234/tasks.task.getaccess",
      "https://p.example/rest/7/hookC0de1234/user.current",
      "https://p.example/rest/7/hookC0de1234/user.current",
      "https://p.example/rest/api/7/hookC0de1234/tasks.task.get",
      "https://p.example/rest/api/7/hookC0de1234/tasks.task.get",
      "https://p.example/rest/api/7/hookC0de1234/tasks.task.get",
    ]);
  });

  it("is not mistaken for a promise; symbols and reserved names are not namespaces", () => {
    const { client } = fakeClient(() => ({ result: 1 }));
    expect(client.then).toBeUndefined();
    expect(client.tasks.then).toBeUndefined();
    expect(client.tasks[Symbol.iterator]).toBeUndefined();
    expect((client as Record<symbol, unknown>)[Symbol.toPrimitive]).toBeUndefined();
    expect(typeof client.paginate).toBe("function");
    expect(typeof client.batch).toBe("function");
  });

  it("`is` guards by code", () => {
    const e = new ApiError({ method: "m", status: 503, code: "QUERY_LIMIT_EXCEEDED", description: "" });
    expect(is.QUERY_LIMIT_EXCEEDED?.(e)).toBe(true);
    expect(is.OPERATION_TIME_LIMIT?.(e)).toBe(false);
    expect((is as Record<symbol, unknown>)[Symbol.iterator]).toBeUndefined();
  });

  it("an application token goes in the body member auth; a refresh replaces it once", async () => {
    let n = 0;
    const { client, seen } = fakeClient(
      () => (n++ === 0 ? { error: "expired_token", error_description: "" } : { result: true }),
      { accessToken: "oldTokenValue1", refresh: async () => "newTokenValue2" },
    );
    expect(await client.user.current()).toBe(true);
    expect(seen.map((s) => s.body.auth)).toEqual(["oldTokenValue1", "newTokenValue2"]);
  });

  it("refuses bad options and application-context methods on a webhook, before sending", async () => {
    expect(() => createClientWith({ baseUrl: "nope", auth: { userId: 1, code: "c" } }, clientData as ClientData)).toThrow(/absolute URL/);
    expect(() => createClientWith({ baseUrl: "http://p.example", auth: { userId: 1, code: "c" } }, clientData as ClientData)).toThrow(/https/);
    expect(() => createClientWith({ baseUrl: "https://p.example", auth: {} as never }, clientData as ClientData)).toThrow(/auth must be/);
    const { client, seen } = fakeClient(() => ({ result: 1 }));
    await expect(client.placement.get()).rejects.toMatchObject({ code: "WRONG_AUTH_TYPE", status: 0 });
    await expect(client.batch({ a: ["placement.get"] })).rejects.toMatchObject({ code: "WRONG_AUTH_TYPE" });
    await expect(client.batch({})).rejects.toThrow(RangeError);
    await expect(client.v3.tasks.task.add({ fields: {} }, { idempotencyKey: "" })).rejects.toThrow(/idempotencyKey/);
    expect(seen).toEqual([]);
  });

  it("a caller's signal that is already aborted sends nothing", async () => {
    const { client, seen } = fakeClient(() => ({ result: 1 }));
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(client.user.current(undefined, { signal: controller.signal })).rejects.toThrow("stop");
    expect(seen).toEqual([]);
  });
});
