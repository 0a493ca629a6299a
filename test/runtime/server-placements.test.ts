import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createPlacementHandler } from "../../runtime/server/placements.js";
import { toNodeListener } from "../../runtime/server/node.js";

/**
 * The server's placement handler (issue 29 item 4, the widget pages): the POST the platform opens a widget's page
 * with (api-reference/widgets/_includes/widget_data.md: DOMAIN, PROTOCOL, LANG, APP_SID in the query; the tokens,
 * APPLICATION_TOKEN, member_id, PLACEMENT and PLACEMENT_OPTIONS in the form body), the token checked, the options
 * parsed from their JSON string, and the handler of the code answering with the page.
 */

const TOKEN = "ec1b2074a9d3f5c81b6e40d27a95cf38";
const form = (pairs: Array<[string, string]>) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
const tab = (code = "CRM_DEAL_DETAIL_TAB", token = TOKEN, options = '{"ID":"5","URI":"/crm/deal/details/5/"}') =>
  form([
    ["AUTH_ID", "83fd7166007e9c94"],
    ["AUTH_EXPIRES", "3600"],
    ["REFRESH_ID", "737c9966007e9c94"],
    ["SERVER_ENDPOINT", "https://oauth.bitrix.info/rest/"],
    ["APPLICATION_TOKEN", token],
    ["APPLICATION_SCOPE", "crm,placement"],
    ["member_id", "d897063e1ce7c5eb9f04b9751eef5915"],
    ["status", "L"],
    ["PLACEMENT", code],
    ["PLACEMENT_OPTIONS", options],
  ]);
const URL_ = "https://app.example/widget?DOMAIN=xxx.bitrix24.com&PROTOCOL=1&LANG=en&APP_SID=23ab";
const post = (body: string) => new Request(URL_, { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } });

type Options = { CRM_DEAL_DETAIL_TAB: { ID: string; URI?: string }; [code: `CRM_DYNAMIC_${string}_DETAIL_TAB`]: { ID: string } };

describe("createPlacementHandler", () => {
  it("checks the token, parses PLACEMENT_OPTIONS and the query, and answers with the handler's page as HTML", async () => {
    const seen: unknown[] = [];
    const handle = createPlacementHandler<Options>({
      applicationToken: TOKEN,
      handlers: {
        CRM_DEAL_DETAIL_TAB: (r) => {
          seen.push(r);
          const id: string | undefined = r.options.ID;
          return `<p>deal ${id}</p>`;
        },
      },
    });
    const res = await handle(post(tab()));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await res.text()).toBe("<p>deal 5</p>");
    expect(seen[0]).toMatchObject({
      placement: "CRM_DEAL_DETAIL_TAB",
      options: { ID: "5", URI: "/crm/deal/details/5/" },
      domain: "xxx.bitrix24.com",
      protocol: "1",
      lang: "en",
      appSid: "23ab",
      auth: { accessToken: "83fd7166007e9c94", refreshToken: "737c9966007e9c94", expiresIn: "3600", memberId: "d897063e1ce7c5eb9f04b9751eef5915", scope: "crm,placement", status: "L" },
    });
  });

  it("refuses a wrong or missing token with 401, and no handler runs", async () => {
    let ran = 0;
    const handle = createPlacementHandler<Options>({ applicationToken: TOKEN, handlers: { CRM_DEAL_DETAIL_TAB: () => (ran++, "page") } });
    expect((await handle(post(tab("CRM_DEAL_DETAIL_TAB", "forged")))).status).toBe(401);
    expect((await handle(post(tab().replace(/APPLICATION_TOKEN=[^&]*&/, "")))).status).toBe(401);
    // A lookup by portal that knows no such portal: 401 as well.
    const lookup = createPlacementHandler<Options>({ applicationToken: (member) => (member === "other" ? TOKEN : undefined), handlers: { CRM_DEAL_DETAIL_TAB: () => (ran++, "page") } });
    expect((await lookup(post(tab()))).status).toBe(401);
    // A lookup in a plain object answers `constructor` with a function: its text is no token.
    const tokens = JSON.parse(`{"d897063e1ce7c5eb9f04b9751eef5915": "${TOKEN}"}`) as Record<string, string>;
    const inObject = createPlacementHandler<Options>({ applicationToken: (member) => tokens[member ?? ""], handlers: { CRM_DEAL_DETAIL_TAB: () => (ran++, "page") } });
    const forged = tab("CRM_DEAL_DETAIL_TAB", String(Object)).replace("member_id=d897063e1ce7c5eb9f04b9751eef5915", "member_id=constructor");
    expect(forged).toContain("member_id=constructor");
    expect((await inObject(post(forged))).status).toBe(401);
    expect((await inObject(post(tab()))).status).toBe(200);
    expect(ran).toBe(1);
  });

  it("a family's code goes to its own handler or the fallback; a code with neither is 404, one through the prototype too", async () => {
    const handle = createPlacementHandler<Options>({
      applicationToken: TOKEN,
      handlers: { CRM_DYNAMIC_183_DETAIL_TAB: (r) => `spa ${r.options.ID}` },
      fallback: (r) => new Response(`other ${r.placement}`, { status: 203 }),
    });
    expect(await (await handle(post(tab("CRM_DYNAMIC_183_DETAIL_TAB")))).text()).toBe("spa 5");
    const other = await handle(post(tab("LEFT_MENU")));
    expect([other.status, await other.text()]).toEqual([203, "other LEFT_MENU"]);
    const none = createPlacementHandler<Options>({ applicationToken: TOKEN, handlers: {} });
    expect((await none(post(tab("LEFT_MENU")))).status).toBe(404);
    expect((await none(post(tab("constructor")))).status).toBe(404);
  });

  it("options that are no JSON object are {}; a body with no PLACEMENT is 400; GET is 405; an oversized body 413", async () => {
    const seen: unknown[] = [];
    const handle = createPlacementHandler({ applicationToken: TOKEN, handlers: {}, fallback: (r) => (seen.push(r.options), "ok"), maxBodyBytes: 2048 });
    for (const options of ["", "not json", "[1,2]", "null", '"text"']) expect((await handle(post(tab("LEFT_MENU", TOKEN, options)))).status).toBe(200);
    expect(seen).toEqual([{}, {}, {}, {}, {}]);
    expect((await handle(post("APPLICATION_TOKEN=" + TOKEN))).status).toBe(400);
    expect((await handle(new Request(URL_, { method: "GET" }))).status).toBe(405);
    expect((await handle(post(tab("LEFT_MENU", TOKEN, "x".repeat(4096))))).status).toBe(413);
  });

  it("a prototype's key in PLACEMENT_OPTIONS is dropped: a copy of the options gets no prototype from it", async () => {
    const seen: Array<Record<string, unknown>> = [];
    const handle = createPlacementHandler({ applicationToken: TOKEN, handlers: {}, fallback: (r) => (seen.push(r.options), "ok") });
    await handle(post(tab("LEFT_MENU", TOKEN, '{"__proto__":{"isAdmin":true},"ID":"5","nested":{"constructor":{"prototype":1},"x":1}}')));
    expect(Object.keys(seen[0] ?? {})).toEqual(["ID", "nested"]);
    expect((Object.assign({}, seen[0]) as Record<string, unknown>)["isAdmin"]).toBeUndefined();
    expect(seen[0]?.["nested"]).toEqual({ x: 1 });
  });

  it("a handler or a lookup that throws is a 500 with no detail", async () => {
    const handle = createPlacementHandler<Options>({ applicationToken: TOKEN, handlers: { CRM_DEAL_DETAIL_TAB: () => { throw new Error(`secret ${TOKEN}`); } } });
    const res = await handle(post(tab()));
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain(TOKEN);
    const lookup = createPlacementHandler<Options>({ applicationToken: () => { throw new Error("db down"); }, handlers: {} });
    expect((await lookup(post(tab()))).status).toBe(500);
  });

  it("never throws on any body: every answer is one of its statuses", async () => {
    const handle = createPlacementHandler({ applicationToken: TOKEN, handlers: {}, fallback: () => "ok" });
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 300 }), async (s) => {
        const res = await handle(post(s));
        expect([200, 400, 401, 404]).toContain(res.status);
      }),
      { numRuns: 300 },
    );
  });

  it("serves a widget's page on loopback through node:http, as a team's server would", async () => {
    const handle = createPlacementHandler<Options>({ applicationToken: TOKEN, handlers: { CRM_DEAL_DETAIL_TAB: (r) => `<h1>${r.options.ID}</h1>` } });
    const server = createServer(toNodeListener(handle));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/widget?DOMAIN=xxx.bitrix24.com&PROTOCOL=1&LANG=en&APP_SID=1`, { method: "POST", body: tab(), headers: { "content-type": "application/x-www-form-urlencoded" } });
      expect([res.status, await res.text()]).toEqual([200, "<h1>5</h1>"]);
      const forged = await fetch(`http://127.0.0.1:${port}/widget`, { method: "POST", body: tab("CRM_DEAL_DETAIL_TAB", "forged"), headers: { "content-type": "application/x-www-form-urlencoded" } });
      expect(forged.status).toBe(401);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
