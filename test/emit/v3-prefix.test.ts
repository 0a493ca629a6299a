import { describe, expect, it } from "vitest";
import { generate } from "../../generator/generate.js";
import type { ServerData } from "../../runtime/shared/data.js";
import { createHandlerWith } from "../../runtime/server/index.js";
import { GEN, SPEC_TEXT } from "../helpers.js";

/**
 * The 3.0 error prefix (decisions.md D11): one option, and the types, the OpenAPI documents, the client and the
 * server all follow it. With `platform`, no code of any generated artifact keeps the spec's prefix; only the shipped
 * spec and the model's copies of the spec's sentences still read as the spec wrote them.
 */
const SPEC_PREFIX = "SERVICE_REST_V3_EXCEPTION_";
const PLATFORM_PREFIX = "BITRIX_REST_V3_EXCEPTION_";

async function files(v3ErrorPrefix: "spec" | "platform") {
  return (await generate(SPEC_TEXT, { ...GEN, format: false, v3ErrorPrefix })).files;
}

const dataOf = <T>(all: Array<{ path: string; contents: string }>, path: string): T =>
  JSON.parse(/^export default (\{.*\});$/m.exec(all.find((f) => f.path === path)?.contents ?? "")?.[1] ?? "null") as T;

describe("v3ErrorPrefix", () => {
  it("platform: every artifact's codes carry BITRIX_REST_V3_EXCEPTION_; spec (the default) keeps the spec's", async () => {
    const platform = await files("platform");
    const artifacts = platform.filter((f) => !f.path.startsWith("types/spec/") && f.path !== "model.json" && !f.path.includes("/runtime/"));
    const stale = artifacts.filter((f) => f.contents.includes(SPEC_PREFIX)).map((f) => f.path);
    expect(stale).toEqual([]);
    // (The client names no 3.0 code of its own: its `is` guards and error types come from the types package.)
    for (const path of ["types/common.d.ts", "openapi/openapi.v3.json", "server/methods.js", "server/README.md"]) {
      expect(platform.find((f) => f.path === path)?.contents, path).toContain(`${PLATFORM_PREFIX}VALIDATION_REQUESTVALIDATIONEXCEPTION`);
    }
    const model = JSON.parse(platform.find((f) => f.path === "model.json")?.contents ?? "{}") as { errors: { catalogue: Array<{ code: string }> } };
    expect(model.errors.catalogue.some((e) => e.code.startsWith(SPEC_PREFIX))).toBe(false);
    const spec = await files("spec");
    expect(spec.find((f) => f.path === "types/common.d.ts")?.contents).toContain(`${SPEC_PREFIX}VALIDATION_REQUESTVALIDATIONEXCEPTION`);
    expect(spec.filter((f) => f.path.startsWith("types/") && f.contents.includes(PLATFORM_PREFIX)).map((f) => f.path)).toEqual([]);
  });

  it("the server built from the platform's data answers the platform's codes", async () => {
    const data = dataOf<ServerData>(await files("platform"), "server/methods.js");
    const handle = createHandlerWith(
      { legacy: {}, v3: { "tasks.task.get": async () => ({ item: {} }) } },
      { authenticate: () => ({ userId: 1, scopes: ["task"], applicationId: "a" }), methodScopes: { v3: { "tasks.task.get": ["task"] } } },
      data,
      { documentation: { legacy: [], v3: [] }, scopeList: { legacy: [], v3: [] } },
      { openapiV3: {} },
    );
    const post = async (body: string, type = "application/json") =>
      (await (await handle(new Request("https://p.example/rest/api/tasks.task.get", { method: "POST", headers: { "Content-Type": type }, body }))).json()) as {
        error: { code: string };
      };
    expect((await post(JSON.stringify({ auth: "t", taskId: "x" }))).error.code).toBe(`${PLATFORM_PREFIX}VALIDATION_REQUESTVALIDATIONEXCEPTION`);
    expect((await post("{", "application/json")).error.code).toBe(`${PLATFORM_PREFIX}INVALIDJSONEXCEPTION`);
  });
});
