import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runtimeModulesApi } from "../../generator/cli/runtime-api-build.js";
import type { Previous } from "../../generator/diff/version.js";
import { type RuntimeApi, keptWith, packageRuntimeApi, runtimeApiChanges, runtimeReExports } from "../../generator/diff/runtime-api.js";
import type { GeneratedFile } from "../../generator/emit/files.js";
import { generate } from "../../generator/generate.js";
import { GEN, RUNTIME, SPEC_PATH, SPEC_TEXT } from "../helpers.js";

/**
 * The runtime's exports as each generation records them (decisions.md D9): a generator upgrade that adds one is a
 * minor version, one that removes or narrows one a breaking version, and only the package whose runtime it is says
 * so in its changelog.
 */

const modules = (files: Record<string, string>) => runtimeModulesApi(files);

describe("the runtime modules' exports, read from their declarations", () => {
  const base = {
    "server/index.d.ts": 'export * from "./handler.js";\nexport { make as createThing, type Opts } from "./thing.js";\n',
    "server/handler.d.ts": [
      "/** A hook. */",
      "export interface Hook {",
      "  /** Called first. */",
      "  start(): void;",
      "  stop?: () => void;",
      "}",
      "export declare function handle(a: string): void;",
      "export declare function handle(a: number): void;",
      "export type Mode = 'a' | 'b';",
      "export declare const LIMIT = 5;",
      "declare function inner(): void;",
      "export { inner as exposed };",
      "",
    ].join("\n"),
    "server/thing.d.ts": "export interface Opts { a?: string }\nexport declare function make(o: Opts): void;\nexport declare function hidden(): void;\n",
  };
  const api = modules(base);

  it("follows `export *` and named re-exports with their new names; comments and layout do not count", () => {
    expect(Object.keys(api["server/index.d.ts"] ?? {})).toEqual(["Hook", "LIMIT", "Mode", "Opts", "createThing", "exposed", "handle"]);
    expect(api["server/index.d.ts"]?.["handle"]?.filter((p) => p.startsWith("s:"))).toHaveLength(2);
    expect(api["server/index.d.ts"]?.["Hook"]?.map((p) => p.split(":")[0])).toEqual(["at", "h", "m", "m?"]);
    const reworded = modules({ ...base, "server/handler.d.ts": base["server/handler.d.ts"].replace("/** Called first. */", "// another comment").replace("start(): void;", "start(  ): void ;") });
    expect(reworded).toEqual(api);
  });

  it("judges what changed: an addition is minor, a part gone or a required member added is breaking, only in its package", () => {
    const api2 = (edit: (files: typeof base) => Record<string, string>): RuntimeApi => ({ server: modules(edit(base))["server/index.d.ts"] ?? {} });
    const was: RuntimeApi = { server: api["server/index.d.ts"] ?? {} };
    const judged = (now: RuntimeApi) => runtimeApiChanges(was, now).map((c) => [c.code, c.severity, Object.keys(c.audiences)]);
    expect(judged(was)).toEqual([]);
    expect(judged(api2((f) => ({ ...f, "server/thing.d.ts": `${f["server/thing.d.ts"]}export declare function more(): void;\n`, "server/index.d.ts": `${f["server/index.d.ts"]}export { more } from "./thing.js";\n` })))).toEqual([["runtime-export-added", "minor", ["server"]]]);
    expect(judged(api2((f) => ({ ...f, "server/index.d.ts": f["server/index.d.ts"].replace("make as createThing, ", "") })))).toEqual([["runtime-export-removed", "breaking", ["server"]]]);
    // An optional member or an overload is an addition; a required member, a changed signature or a lost member is not.
    const hook = (body: string) => api2((f) => ({ ...f, "server/handler.d.ts": f["server/handler.d.ts"].replace("  stop?: () => void;\n", body) }));
    expect(judged(hook("  stop?: () => void;\n  pause?: () => void;\n"))).toEqual([["runtime-export-changed", "minor", ["server"]]]);
    expect(judged(hook("  stop?: () => void;\n  pause(): void;\n"))).toEqual([["runtime-export-changed", "breaking", ["server"]]]);
    expect(judged(hook(""))).toEqual([["runtime-export-changed", "breaking", ["server"]]]);
    expect(judged(api2((f) => ({ ...f, "server/handler.d.ts": f["server/handler.d.ts"].replace("export type Mode = 'a' | 'b';", "export type Mode = 'a' | 'b';\nexport declare function handle(a: boolean): void;") })))).toEqual([["runtime-export-changed", "minor", ["server"]]]);
    expect(judged(api2((f) => ({ ...f, "server/handler.d.ts": f["server/handler.d.ts"].replace("export type Mode = 'a' | 'b';", "export type Mode = 'a';") })))).toEqual([["runtime-export-changed", "breaking", ["server"]]]);
  });

  it("a type no entry exports is judged through the exports that name it; an optional parameter added is an addition (review)", () => {
    const files = {
      "client/index.d.ts": 'export { type ClientData, call } from "./data.js";\n',
      "client/data.d.ts": 'import type { Version } from "./version.js";\ninterface KeyRule { header: string; body?: boolean }\nexport interface ClientData { key: KeyRule; version: Version }\nexport declare function call(a: string): void;\n',
      "client/version.d.ts": "export type Version = 'legacy' | 'v3';\n",
    };
    const entry = (f: Record<string, string>): RuntimeApi => ({ format: 3, client: packageRuntimeApi([{ path: "client/package.json", contents: '{"exports":{".":{"types":"./index.d.ts"}}}' }, { path: "client/index.d.ts", contents: 'export { type ClientData, call } from "./runtime/client/index.js";\n' }], runtimeModulesApi(f))?.client ?? {} });
    const was = entry(files);
    const judged = (f: Record<string, string>) => runtimeApiChanges(was, entry(f)).map((c) => [c.code, c.severity, c.message.split(" ")[0]]);
    expect(Object.keys(was.client ?? {})).toEqual(["ClientData", "call"]);
    // KeyRule loses a member, Version narrows: neither is exported, both change ClientData.
    expect(judged({ ...files, "client/data.d.ts": files["client/data.d.ts"].replace(" body?: boolean", "") })).toEqual([["runtime-export-changed", "breaking", "`ClientData`"]]);
    expect(judged({ ...files, "client/version.d.ts": "export type Version = 'legacy';\n" })).toEqual([["runtime-export-changed", "breaking", "`ClientData`"]]);
    // A trailing optional parameter is an addition; a required one, or a changed return, is not.
    const call = (sig: string) => ({ ...files, "client/data.d.ts": files["client/data.d.ts"].replace("export declare function call(a: string): void;", sig) });
    expect(judged(call("export declare function call(a: string, b?: number): void;"))).toEqual([["runtime-export-changed", "minor", "`call`"]]);
    expect(judged(call("export declare function call(a: string, b: number): void;"))).toEqual([["runtime-export-changed", "breaking", "`call`"]]);
    expect(judged(call("export declare function call(a: string): string;"))).toEqual([["runtime-export-changed", "breaking", "`call`"]]);
    // A record made another way (an earlier format) is compared by its names alone: a part's hash of another
    // format says nothing, an export gone is still gone.
    expect(runtimeApiChanges({ ...was, format: 1 }, entry(call("export declare function call(): void;")))).toEqual([]);
    expect(runtimeApiChanges({ ...was, format: 1, client: { ...was.client, gone: ["s:0"] } }, entry(files)).map((c) => [c.code, c.severity])).toEqual([["runtime-export-removed", "breaking"]]);
  });

  it("a type named like an export but declared elsewhere is not that export (second review: shape.js's `CallResult`)", () => {
    const files = {
      "client/index.d.ts": 'export { type CallResult, withResponse } from "./types.js";\n',
      "client/types.d.ts": "interface CallResult { replayed: boolean; body: string }\nexport declare function withResponse(): CallResult;\nexport type { CallResult as Inner };\n",
      "client/shape.d.ts": "export type CallResult = { result: unknown };\n",
    };
    const pkg = (f: Record<string, string>): RuntimeApi => ({
      format: 3,
      client:
        packageRuntimeApi(
          [
            { path: "client/package.json", contents: '{"exports":{".":{"types":"./index.d.ts"}}}' },
            // The package's `CallResult` is shape.js's; `withResponse` returns the runtime's own, of the same name.
            { path: "client/index.d.ts", contents: 'export { withResponse } from "./runtime/client/index.js";\nexport type { CallResult } from "./shape.js";\n' },
          ],
          runtimeModulesApi(f),
        )?.client ?? {},
    });
    const was = pkg(files);
    expect(Object.keys(was.client ?? {})).toEqual(["CallResult", "withResponse"]);
    const changed = runtimeApiChanges(was, pkg({ ...files, "client/types.d.ts": files["client/types.d.ts"].replace("replayed: boolean; ", "") }));
    expect(changed.map((c) => [c.code, c.severity, c.message.split(" ")[0]])).toEqual([["runtime-export-changed", "breaking", "`withResponse`"]]);
  });

  it("a run of one package keeps the other's record, in one order of keys; a record of another format is not kept", () => {
    const client = { a: ["s:1"] };
    const server = { b: ["s:2"] };
    expect(JSON.stringify(keptWith({ server, client, format: 3 }, { format: 3, server: { b: ["s:3"] } }))).toBe(JSON.stringify({ format: 3, client, server: { b: ["s:3"] } }));
    expect(keptWith({ client, format: 2 }, { format: 3, server })).toEqual({ format: 3, server });
    expect(keptWith(undefined, { format: 3, client, server })).toEqual({ format: 3, client, server });
  });

  it("an area's entry point counts: what it re-exports from `../../runtime/` is the package's too (review)", () => {
    const modules = runtimeModulesApi({ "client/index.d.ts": "export declare function a(): void;\nexport declare function b(): void;\n" });
    const files = [
      { path: "client/package.json", contents: '{"exports":{".":{"types":"./index.d.ts"},"./crm":{"types":"./areas/crm/index.d.ts"}}}' },
      { path: "client/index.d.ts", contents: 'export { a } from "./runtime/client/index.js";\n' },
      { path: "client/areas/crm/index.d.ts", contents: 'export {\n  b,\n} from "../../runtime/client/index.js";\n' },
    ];
    expect(Object.keys(packageRuntimeApi(files, modules)?.client ?? {})).toEqual(["a", "b"]);
  });

  it("the shipped runtime's report names what the generated packages export", () => {
    const report = JSON.parse(RUNTIME["api.json"] ?? "null") as Record<string, Record<string, string[]>>;
    expect(Object.keys(report["server/index.d.ts"] ?? {})).toEqual(expect.arrayContaining(["createPlacementHandler", "createEventHandler", "createMockWith"]));
    expect(Object.keys(report["server/redis.d.ts"] ?? {}).length).toBeGreaterThan(0);
  });
});

describe("an entry file's re-exports from its runtime", () => {
  it("reads `export *`, names with `type` and `as` across lines, and skips imports", () => {
    const text = [
      "// header",
      'import type { A, B } from "./runtime/client/index.js";',
      "export {",
      "  type C,",
      "  d as e,",
      "  f,",
      '} from "./runtime/client/index.js";',
      'export * from "./runtime/client/redis.js";',
      'export type { G } from "./types.js";',
      "export { ApiError as default } from \"./runtime/client/index.js\";",
      'export { type Surface } from "./shape.js";',
      "",
    ].join("\n");
    // The client's `./shape.js` is the runtime's too (runtime/client/shape.ts, shipped as written).
    expect(runtimeReExports(text, (spec) => (spec === "./shape.js" ? "client/shape.d.ts" : undefined)).at(-1)).toEqual({ module: "client/shape.d.ts", names: [["Surface", "Surface"]] });
    // An area's entry re-exports from `../../runtime/…` (and `export type *` is all of a module).
    const area = 'export {\n  ApiError,\n} from "../../runtime/client/index.js";\nexport type * from "../../runtime/client/redis.js";\nexport type * from "collab-platform-api-types/crm";\n';
    const up = (spec: string) => (spec.startsWith("../../runtime/") ? spec.slice("../../runtime/".length).replace(/\.js$/, ".d.ts") : undefined);
    expect(runtimeReExports(area, up)).toEqual([{ module: "client/index.d.ts", names: [["ApiError", "ApiError"]] }, { module: "client/redis.d.ts", names: "*" }]);
    expect(runtimeReExports(text)).toEqual([
      { module: "client/index.d.ts", names: [["C", "C"], ["d", "e"], ["f", "f"]] },
      { module: "client/redis.d.ts", names: "*" },
      { module: "client/index.d.ts", names: [["ApiError", "default"]] },
    ]);
  });

  it("reads back any names, in one statement or one a line (fast-check), in time linear in the file", () => {
    const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,10}$/);
    fc.assert(
      fc.property(fc.uniqueArray(name, { minLength: 1, maxLength: 20 }), fc.boolean(), (names, multiline) => {
        const list = multiline ? `\n${names.map((n) => `  ${n},`).join("\n")}\n` : ` ${names.join(", ")} `;
        expect(runtimeReExports(`export {${list}} from "./runtime/server/index.js";\n`)).toEqual([{ module: "server/index.d.ts", names: names.map((n) => [n, n]) }]);
      }),
      { numRuns: 200 },
    );
    // 20,000 statements after one long import: each read once, from its own line.
    const big = `import {\n${"  x,\n".repeat(20_000)}} from "./runtime/a.js";\n${'export { a } from "./runtime/server/index.js";\n'.repeat(20_000)}`;
    const started = process.hrtime.bigint();
    expect(runtimeReExports(big)).toHaveLength(20_000);
    // A bound two orders above the measured time (a few ms): only a quadratic reading reaches it.
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(2_000);
  });
});

describe("the runtime's exports across generations", async () => {
  type Files = Map<string, GeneratedFile>;
  const gen = async (previous: Files | null): Promise<Files> => {
    const r = await generate(SPEC_TEXT, { ...GEN, specPath: SPEC_PATH, ...(previous ? { previous: previousOf(previous) } : {}) });
    return new Map(r.files.map((f) => [f.path, f]));
  };
  const previousOf = (files: Files): Previous => {
    const text = (p: string) => files.get(p)?.contents ?? "";
    return { modelJson: text("model.json"), changelogs: { types: text("types/CHANGELOG.md"), client: text("client/CHANGELOG.md"), server: text("server/CHANGELOG.md") }, fileHashes: (JSON.parse(text("manifest.json")) as { files: Record<string, string> }).files };
  };
  const generationOf = (files: Files) => (JSON.parse(files.get("model.json")?.contents ?? "{}") as { generation: { version: string; runtimeApi?: RuntimeApi } }).generation;
  // The model.json of a generation whose record is edited (as an older generator's would be).
  const withRecord = (files: Files, edit: (api: RuntimeApi | undefined) => RuntimeApi | undefined): Files => {
    const raw = JSON.parse(files.get("model.json")?.contents ?? "{}") as { generation: { runtimeApi?: RuntimeApi } };
    const runtimeApi = edit(raw.generation.runtimeApi);
    raw.generation = { ...raw.generation, runtimeApi };
    if (!runtimeApi) delete raw.generation.runtimeApi;
    return new Map([...files, ["model.json", { path: "model.json", contents: `${JSON.stringify(raw, null, 2)}\n` }]]);
  };
  const first = await gen(null);

  it("the first generation records what the client and server packages export from their runtime", () => {
    const api = generationOf(first).runtimeApi;
    expect(Object.keys(api?.server ?? {})).toEqual(expect.arrayContaining(["createPlacementHandler", "createMockWith"]));
    expect(Object.keys(api?.client ?? {})).toEqual(expect.arrayContaining(["ApiError", "createClientWith", "MethodFn", "Surface"]));
    // The record is the packages' own: what their entry files export.
    const entry = `${first.get("client/index.d.ts")?.contents ?? ""}${first.get("client/runtime/client/redis.d.ts")?.contents ?? ""}`;
    for (const name of Object.keys(api?.client ?? {})) if (name !== "default") expect(entry, name).toMatch(new RegExp(`\\b${name}\\b`));
    expect(packageRuntimeApi([...first.values()], JSON.parse(RUNTIME["api.json"] ?? "{}"))).toEqual(api);
  });

  it("an unchanged runtime changes nothing: same version, same bytes", async () => {
    const again = await gen(first);
    expect(generationOf(again).version).toBe(generationOf(first).version);
    for (const [path, f] of first) expect(again.get(path)?.contents, path).toBe(f.contents);
  });

  it("an export the last generation did not have is a minor version, in the server's changelog alone", async () => {
    const older = withRecord(first, (api) => ({ ...api, server: Object.fromEntries(Object.entries(api?.server ?? {}).filter(([n]) => n !== "createPlacementHandler")) }));
    const next = await gen(older);
    expect(generationOf(next).version).toBe("0.2.0");
    expect(next.get("server/CHANGELOG.md")?.contents).toContain("- the server package exports `createPlacementHandler` from its runtime (`runtime-export-added`)");
    expect(next.get("client/CHANGELOG.md")?.contents).not.toContain("runtime-export");
    expect(next.get("types/CHANGELOG.md")?.contents).not.toContain("runtime-export");
    expect(generationOf(next).runtimeApi).toEqual(generationOf(first).runtimeApi);
  });

  it("an export gone or narrowed is breaking (a minor version while 0.x, a major from 1.0.0)", async () => {
    const older = withRecord(first, (api) => ({ ...api, client: { ...api?.client, GoneHelper: ["s:0"], ApiError: [...(api?.client?.["ApiError"] ?? []), "m?:lost"] } }));
    const next = await gen(older);
    const log = next.get("client/CHANGELOG.md")?.contents ?? "";
    expect(log).toContain("- **Breaking:** the client package no longer exports `GoneHelper` from its runtime (`runtime-export-removed`)");
    expect(log).toContain("- **Breaking:** `ApiError` of the client package's runtime lost or changed a part (`runtime-export-changed`)");
    expect(generationOf(next).version).toBe("0.2.0");
    const major = withRecord(await gen(null).then((f) => f), (api) => ({ ...api, client: { ...api?.client, GoneHelper: ["s:0"] } }));
    const one = await generate(SPEC_TEXT, { ...GEN, specPath: SPEC_PATH, version: "1.0.0", previous: previousOf(withVersion(major, "1.0.0")) });
    expect((JSON.parse(one.files.find((f) => f.path === "model.json")?.contents ?? "{}") as { generation: { version: string } }).generation.version).toBe("2.0.0");
  });

  it("a generation recorded before the runtime was kept gets its record and keeps its version", async () => {
    const older = withRecord(first, () => undefined);
    const next = await gen(older);
    expect(generationOf(next).version).toBe(generationOf(first).version);
    expect(generationOf(next).runtimeApi).toEqual(generationOf(first).runtimeApi);
    for (const [path, f] of first) if (path !== "model.json" && path !== "manifest.json") expect(next.get(path)?.contents, path).toBe(f.contents);
  });
});

/** A generation's files as they would be at `version` (its model.json's record). */
function withVersion(files: Map<string, GeneratedFile>, version: string): Map<string, GeneratedFile> {
  const raw = JSON.parse(files.get("model.json")?.contents ?? "{}") as { generation: { version: string } };
  raw.generation.version = version;
  return new Map([...files, ["model.json", { path: "model.json", contents: `${JSON.stringify(raw, null, 2)}\n` }]]);
}
