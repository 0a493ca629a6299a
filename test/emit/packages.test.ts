import { execFileSync, spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import GithubSlugger from "github-slugger";
import { Project, ts } from "ts-morph";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers.js";

/** The generated packages as a consumer gets them: `npm pack`, an offline install into a fresh project, tsc --strict. */
const dir = mkdtempSync(join(tmpdir(), "crc-consumer-"));
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");
/** A consumer's tsconfig.json: strict, NodeNext, the packages' own declarations checked too. */
const strictConfig = (files: string[]) =>
  JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", lib: ["ES2023", "DOM"], types: [], skipLibCheck: false },
    files,
  });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(() => {
  mkdirSync(join(dir, "packs"));
  execFileSync("npm", ["pack", join(ROOT, "output/types"), join(ROOT, "output/client"), join(ROOT, "output/server"), "--pack-destination", "packs"], { cwd: dir, stdio: "pipe" });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer", version: "1.0.0", private: true, type: "module" }));
  const packs = readdirSync(join(dir, "packs")).map((f) => `./packs/${f}`);
  execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", ...packs], { cwd: dir, stdio: "pipe" });
});

describe("published packages", () => {
  it("hold only what a package needs, with names, versions, exports and sideEffects", () => {
    for (const name of ["collab-platform-api-types", "collab-platform-api-client", "collab-platform-api-server"]) {
      const pkg = JSON.parse(readFileSync(join(dir, "node_modules", name, "package.json"), "utf8"));
      expect(pkg).toMatchObject({ name, version: expect.stringMatching(/^\d+\.\d+\.\d+$/), types: "./index.d.ts", sideEffects: false });
      expect(pkg.exports["."]).toEqual({ types: "./index.d.ts", default: "./index.js" });
    }
    const types = JSON.parse(readFileSync(join(dir, "node_modules/collab-platform-api-types/package.json"), "utf8"));
    expect(types.dependencies).toBeUndefined();
    const client = JSON.parse(readFileSync(join(dir, "node_modules/collab-platform-api-client/package.json"), "utf8"));
    expect(Object.keys(client.dependencies)).toEqual(["collab-platform-api-types"]);
    // An entry per area in both packages (D14), each pointing at files the tarball holds.
    const areas = (pkg: { exports: Record<string, unknown> }) => Object.keys(pkg.exports).filter((k) => !["./package.json", ".", "./common", "./redis"].includes(k));
    expect(areas(client)).toEqual(areas(types));
    // The Redis stores (D17, D26): a subpath of their own in the client and the server, ioredis an optional peer.
    const server = JSON.parse(readFileSync(join(dir, "node_modules/collab-platform-api-server/package.json"), "utf8"));
    for (const [name, pkg] of [["client", client], ["server", server]] as const) {
      expect(Object.keys(pkg.exports), name).toContain("./redis");
      expect(pkg.peerDependencies, name).toEqual({ ioredis: ">=5.0.0" });
      expect(pkg.peerDependenciesMeta, name).toEqual({ ioredis: { optional: true } });
      for (const target of Object.values(pkg.exports["./redis"] as Record<string, string>)) {
        expect(existsSync(join(dir, `node_modules/collab-platform-api-${name}`, target)), `${name}: ${target}`).toBe(true);
      }
    }
    expect(areas(client)).toEqual(expect.arrayContaining(["./tasks", "./telephony", "./user", "./event"]));
    for (const [name, pkg] of [["types", types], ["client", client]] as const) {
      for (const target of Object.values(pkg.exports).flatMap((t) => (typeof t === "string" ? [t] : Object.values(t as Record<string, string>)))) {
        expect(existsSync(join(dir, `node_modules/collab-platform-api-${name}`, target)), `${name}: ${target}`).toBe(true);
      }
    }
  });

  it("every @see of every package names a file inside the packed tarball, and a heading of it (issue 10)", () => {
    const installed = ["collab-platform-api-types", "collab-platform-api-client", "collab-platform-api-server"].map((n) => join(dir, "node_modules", n));
    const files = (root: string): string[] =>
      readdirSync(root, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(root, e.name)) : [join(root, e.name)]));
    /** GitHub's anchors of a Markdown file's headings (fenced code left out), as the generator computes them. */
    const anchorsOf = (path: string): Set<string> => {
      const slugger = new GithubSlugger();
      let fenced = false;
      const out = new Set<string>();
      for (const line of readFileSync(path, "utf8").split("\n")) {
        if (/^```/.test(line)) fenced = !fenced;
        const h = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
        if (h) out.add(slugger.slug((h[1] ?? "").replace(/`/g, "")));
      }
      return out;
    };
    let checked = 0;
    for (const pkg of installed) {
      for (const file of files(pkg).filter((f) => /\.(d\.ts|ts|js|md)$/.test(f))) {
        for (const m of readFileSync(file, "utf8").matchAll(/@see\s+(\S+)/g)) {
          const target = m[1] ?? "";
          const [path, anchor] = target.split("#");
          const resolved = join(dirname(file), path ?? "");
          expect(existsSync(resolved), `${file}: @see ${target}`).toBe(true);
          if (anchor) expect(anchorsOf(resolved).has(anchor), `${file}: @see ${target}`).toBe(true);
          checked++;
        }
      }
    }
    // The types alone carry a @see on every declaration taken from the spec.
    expect(checked).toBeGreaterThan(700);
  });

  it("hovering a client method in an editor shows what the spec says of it (issue 10)", () => {
    const source = [
      'import { createClient } from "collab-platform-api-client";',
      "declare const code: string;",
      'const app = createClient({ baseUrl: "https://portal.example", auth: { accessToken: code, refresh: async () => code } });',
      "app.tasks.task.unpin;",
      "app.task.comment.add;",
      "app.telephony.externalCall.finish;",
      "app.v3.tasks.task.add;",
      'app.call("tasks.task.unpin", { id: 1 });',
      "",
    ].join("\n");
    const project = new Project({
      compilerOptions: { strict: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022 },
    });
    const file = project.createSourceFile(join(dir, "hover.ts"), source, { overwrite: true });
    const service = project.getLanguageService().compilerObject;
    const hover = (needle: string, at: "start" | "end" = "end") => {
      const i = source.indexOf(needle);
      const info = service.getQuickInfoAtPosition(file.getFilePath(), at === "end" ? i + needle.length - 2 : i + 1);
      return {
        text: ts.displayPartsToString(info?.documentation ?? []),
        tags: (info?.tags ?? []).map((t) => `@${t.name} ${ts.displayPartsToString(t.text ?? [])}`),
      };
    };
    const unpin = hover("app.tasks.task.unpin");
    expect(unpin.text).toContain("Unpins the task in the current user's task list.");
    expect(unpin.text).toContain("Scope: `task`.");
    expect(unpin.text).toContain("Who may call: Any user with read access.");
    expect(hover("app.task.comment.add").tags).toContainEqual(expect.stringMatching(/^@deprecated Use `tasks\.task\.chat\.message\.send`/));
    expect(hover("app.telephony.externalCall.finish").text).toContain("Application context only: a webhook gets `WRONG_AUTH_TYPE`.");
    expect(hover("app.v3.tasks.task.add").text).toContain("Honours the `Idempotency-Key` header.");
    // By name: `call` resolves to the method's own signature, whose docs are the same.
    const i = source.indexOf('app.call("tasks.task.unpin"') + "app.ca".length;
    const info = service.getQuickInfoAtPosition(file.getFilePath(), i);
    expect(ts.displayPartsToString(info?.documentation ?? [])).toContain("Unpins the task in the current user's task list.");
    expect(ts.displayPartsToString(info?.displayParts ?? [])).toContain('"tasks.task.unpin"');
  });

  it("a fresh consumer compiles the type-level suite with tsc --strict: wrong calls do not compile", () => {
    copyFileSync(join(ROOT, "test/types/calls.ts"), join(dir, "calls.ts"));
    writeFileSync(join(dir, "tsconfig.json"), strictConfig(["calls.ts"]));
    const r = spawnSync(process.execPath, [TSC, "-p", "tsconfig.json"], { cwd: dir, encoding: "utf8" });
    expect(r.stdout).toBe("");
    expect(r.status).toBe(0);
  });

  it("the same suite fails where a directive is taken away (the checks can fail)", () => {
    const source = readFileSync(join(ROOT, "test/types/calls.ts"), "utf8");
    const directives = source.split("\n").filter((l) => /^\s*\/\/ @ts-expect-error/.test(l)).length;
    writeFileSync(join(dir, "calls.ts"), source.replace(/^\s*\/\/ @ts-expect-error.*$/gm, ""));
    const r = spawnSync(process.execPath, [TSC, "-p", "tsconfig.json"], { cwd: dir, encoding: "utf8" });
    expect(r.status).not.toBe(0);
    const errorLines = new Set(r.stdout.split("\n").filter((l) => /^calls\.ts\(\d+,/.test(l)).map((l) => /^calls\.ts\((\d+),/.exec(l)?.[1]));
    expect(errorLines.size).toBe(directives);
  });

  it("a wrong call by name is reported against the method called, with its parameters' type, never another method", () => {
    writeFileSync(
      join(dir, "by-name.ts"),
      [
        'import { createClient } from "collab-platform-api-client";',
        "declare const code: string;",
        'const hook = createClient({ baseUrl: "https://portal.example", auth: { userId: 1, code } });',
        "export async function f(): Promise<unknown[]> {",
        '  return [await hook.call("tasks.task.getaccess"), await hook.request("tasks.task.getaccess"), await hook.call("tasks.task.getaccess", { users: [1] })];',
        "}",
        "",
      ].join("\n"),
    );
    writeFileSync(join(dir, "tsconfig.by-name.json"), strictConfig(["by-name.ts"]));
    const r = spawnSync(process.execPath, [TSC, "-p", "tsconfig.by-name.json"], { cwd: dir, encoding: "utf8" });
    // One report per call, each at its own column of line 5.
    const reports = r.stdout.split(/\n(?=by-name\.ts\()/).filter((l) => l.startsWith("by-name.ts(5,"));
    expect(reports).toHaveLength(3);
    // Without the parameters: the method and its parameters' type are named (before, the last signature of another
    // method was: '"tasks.task.getaccess"' is not assignable to '"catalog.product.download"').
    for (const report of reports.slice(0, 2)) expect(report).toMatch(/"tasks\.task\.getaccess" & \{ readonly "its parameters are required": TasksTaskGetaccessParams; \}/);
    expect(reports[2]).toContain("Property 'taskId' is missing in type '{ users: number[]; }' but required in type 'TasksTaskGetaccessParams'");
    for (const report of reports) expect(report).not.toMatch(/catalog\.|calendar\./);
  });

  it("an area's entry types its client by that area alone; removing any directive of its suite fails (D14)", () => {
    copyFileSync(join(ROOT, "test/types/areas.ts"), join(dir, "areas.ts"));
    writeFileSync(join(dir, "tsconfig.areas.json"), strictConfig(["areas.ts"]));
    const r = spawnSync(process.execPath, [TSC, "-p", "tsconfig.areas.json"], { cwd: dir, encoding: "utf8" });
    expect(r.stdout).toBe("");
    expect(r.status).toBe(0);
    const source = readFileSync(join(ROOT, "test/types/areas.ts"), "utf8");
    const directives = source.split("\n").filter((l) => /^\s*\/\/ @ts-expect-error/.test(l)).length;
    writeFileSync(join(dir, "areas.ts"), source.replace(/^\s*\/\/ @ts-expect-error.*$/gm, ""));
    const bare = spawnSync(process.execPath, [TSC, "-p", "tsconfig.areas.json"], { cwd: dir, encoding: "utf8" });
    const errorLines = new Set(bare.stdout.split("\n").filter((l) => /^areas\.ts\(\d+,/.test(l)).map((l) => /^areas\.ts\((\d+),/.exec(l)?.[1]));
    expect(errorLines.size).toBe(directives);
    // What tsc reads for a program of one area: that area's declarations and the shared ones, never the main entries
    // or another area's, so the cost stays flat however many methods the packages hold.
    writeFileSync(join(dir, "one-area.ts"), 'import { createClient } from "collab-platform-api-client/tasks";\nexport const c = createClient({ baseUrl: "https://p.example", auth: { accessToken: "t" } }).tasks.task.get({ taskId: 1 });\n');
    writeFileSync(join(dir, "tsconfig.one.json"), strictConfig(["one-area.ts"]));
    const list = spawnSync(process.execPath, [TSC, "-p", "tsconfig.one.json", "--listFilesOnly"], { cwd: dir, encoding: "utf8" });
    const read = list.stdout.split("\n").filter((l) => l.includes("/node_modules/collab-platform-api-")).map((l) => l.slice(l.indexOf("collab-platform-api-")));
    expect(read).toEqual(expect.arrayContaining(["collab-platform-api-client/areas/tasks/index.d.ts", "collab-platform-api-types/areas/tasks.d.ts", "collab-platform-api-types/common.d.ts"]));
    expect(read.filter((f) => /\/areas\//.test(f) && !/\/areas\/tasks(\/|\.d\.ts)/.test(f))).toEqual([]);
    expect(read).not.toContain("collab-platform-api-types/index.d.ts");
    expect(read).not.toContain("collab-platform-api-client/index.d.ts");
    expect(read).not.toContain("collab-platform-api-client/calls.d.ts");
  });

  it("the server package compiles with the user-owned skeleton, and wrong handlers do not compile", () => {
    expect(readdirSync(join(dir, "node_modules/collab-platform-api-server")).sort()).toEqual(
      ["CHANGELOG.md", "README.md", "documentation.d.ts", "documentation.js", "index.d.ts", "index.js", "methods.d.ts", "methods.js", "mock.d.ts", "mock.js", "package.json", "runtime", "seed.schema.json"].sort(),
    );
    copyFileSync(join(ROOT, "output/server/skeleton/handlers.ts"), join(dir, "handlers.ts"));
    copyFileSync(join(ROOT, "test/types/server.ts"), join(dir, "server.ts"));
    writeFileSync(
      join(dir, "tsconfig.server.json"),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", lib: ["ES2023", "DOM"], types: [] },
        files: ["handlers.ts", "server.ts"],
      }),
    );
    const r = spawnSync(process.execPath, [TSC, "-p", "tsconfig.server.json"], { cwd: dir, encoding: "utf8" });
    expect(r.stdout).toBe("");
    expect(r.status).toBe(0);
  });

  it("the emitted data satisfies the runtime's declared data types, byte for byte as shipped", () => {
    // The default export of methods.js becomes `VALUE satisfies Data`: the compiler checks the shipped literal
    // (contextually typed, so `"integer"` stays a kind) against runtime/shared/data.d.ts.
    const areaData = readdirSync(join(dir, "node_modules/collab-platform-api-client/areas")).map((a) => [`client-${a}`, `areas/${a}/methods.js`] as const);
    const modules = [["client", "methods.js"], ["server", "methods.js"], ...areaData] as const;
    for (const [label, path] of modules) {
      const pkg = label.startsWith("client") ? "client" : "server";
      const type = pkg === "client" ? "ClientData" : "ServerData";
      const root = join(dir, "node_modules", `collab-platform-api-${pkg}`);
      const js = readFileSync(join(root, path), "utf8");
      const literal = /^export default (\{.*\});$/m.exec(js)?.[1];
      expect(literal?.length).toBeGreaterThan(500);
      const ts = [
        `import type { ${type} } from "./node_modules/collab-platform-api-${pkg}/runtime/shared/data.js";`,
        `export default ${literal} satisfies ${type};`,
      ].join("\n");
      writeFileSync(join(dir, `data-${label}.ts`), ts);
    }
    // And a data module that breaks the contract does not compile: the check can fail.
    writeFileSync(join(dir, "data-broken.ts"), readFileSync(join(dir, "data-server.ts"), "utf8").replace('"kind":"integer"', '"kind":"int"'));
    const config = (files: string[]) =>
      JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", lib: ["ES2023", "DOM"], types: [] }, files });
    writeFileSync(join(dir, "tsconfig.data.json"), config(modules.map(([label]) => `data-${label}.ts`)));
    const r = spawnSync(process.execPath, [TSC, "-p", "tsconfig.data.json"], { cwd: dir, encoding: "utf8" });
    expect(r.stdout).toBe("");
    expect(r.status).toBe(0);
    writeFileSync(join(dir, "tsconfig.broken.json"), config(["data-broken.ts"]));
    const broken = spawnSync(process.execPath, [TSC, "-p", "tsconfig.broken.json"], { cwd: dir, encoding: "utf8" });
    expect(broken.stdout).toMatch(/data-broken\.ts\(\d+,\d+\): error TS2322/);
  });

  it("the generated entry modules type-check against the runtimes' declarations (checkJs, strict)", () => {
    writeFileSync(
      join(dir, "tsconfig.js.json"),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, allowJs: true, checkJs: true, module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", lib: ["ES2023", "DOM"], types: [], noImplicitAny: false },
        files: [
          ...["client", "server"].map((p) => `node_modules/collab-platform-api-${p}/index.js`),
          ...readdirSync(join(dir, "node_modules/collab-platform-api-client/areas")).map((a) => `node_modules/collab-platform-api-client/areas/${a}/index.js`),
        ],
      }),
    );
    const r = spawnSync(process.execPath, [TSC, "-p", "tsconfig.js.json"], { cwd: dir, encoding: "utf8" });
    expect(r.stdout).toBe("");
    expect(r.status).toBe(0);
  });

  it("the client loads in Node with no other dependency", () => {
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", 'import("collab-platform-api-client").then((m) => console.log(typeof m.createClient, typeof m.is.QUERY_LIMIT_EXCEEDED))'], { cwd: dir, encoding: "utf8" });
    expect(out.trim()).toBe("function function");
  });

  it("an area's client loads by its subpath and knows its methods' flags: a webhook is refused an application-only method before any request", () => {
    const script = [
      'const { createClient, ApiError } = await import("collab-platform-api-client/telephony");',
      "let requests = 0;",
      'const c = createClient({ baseUrl: "https://portal.example", auth: { userId: 1, code: "c0de" }, fetch: async () => { requests++; throw new Error("no network"); } });',
      'const e = await c.telephony.externalLine.add({ NUMBER: "1" }).catch((x) => x);',
      "console.log(JSON.stringify([e instanceof ApiError, e.code, requests]));",
    ].join("\n");
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: dir, encoding: "utf8" });
    expect(JSON.parse(out)).toEqual([true, "WRONG_AUTH_TYPE", 0]);
  });
});

describe("shipped files point at files a user has (issue 25)", () => {
  it("no generated file names this repository's folders, its decision numbers or its issue numbers", () => {
    const root = join(ROOT, "output");
    const files = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(d, e.name)) : [join(d, e.name)]));
    const offending: string[] = [];
    for (const f of files(root)) {
      if (f.endsWith("CHANGELOG.md") || f.endsWith("model.json") || f.endsWith(".yaml") || f.includes("/openapi/")) continue;
      const text = readFileSync(f, "utf8");
      const hit = /\.\.\/shared\/(?:platform-docs|docs|spec)|shared\/platform-docs|decisions\.md|\(D\d{1,2}\)|\bissue \d+/.exec(text);
      if (hit) offending.push(`${f.slice(root.length + 1)}: ${hit[0]}`);
    }
    expect(offending).toEqual([]);
  });
});

describe("the server package's first server (issue 25)", () => {
  it("the README's server.ts and tsconfig.json compile with tsc and answer user.current on loopback", async () => {
    const readme = readFileSync(join(dir, "node_modules/collab-platform-api-server/README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## A first server"), readme.indexOf("## What the router does"));
    const ts = /```ts\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
    const json = /```json\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
    expect(ts).toContain("allowHttp: true");
    const app = join(dir, "first-server");
    mkdirSync(join(app, "src"), { recursive: true });
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "first-server", private: true, type: "module" }));
    writeFileSync(join(app, "tsconfig.json"), json);
    writeFileSync(join(app, "src/server.ts"), ts);
    copyFileSync(join(ROOT, "output/server/skeleton/handlers.ts"), join(app, "src/handlers.ts"));
    // `npm install --save-dev typescript @types/node`, as the README says: this repository's copies.
    mkdirSync(join(app, "node_modules/@types"), { recursive: true });
    symlinkSync(join(ROOT, "node_modules/@types/node"), join(app, "node_modules/@types/node"));
    // The consumer project's node_modules, one folder up, is where the packages are installed.
    const compiled = spawnSync(process.execPath, [TSC, "-p", "."], { cwd: app, encoding: "utf8" });
    expect(compiled.stdout + compiled.stderr).toBe("");
    expect(compiled.status).toBe(0);
    const child = spawn(process.execPath, ["dist/server.js"], { cwd: app, env: { ...process.env, PORT: "0", WEBHOOK_CODE: "local-dev-code" }, stdio: ["ignore", "pipe", "pipe"] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        const timer = setTimeout(() => reject(new Error(`no listening line: ${out}`)), 20_000);
        child.stdout.on("data", (d: Buffer) => {
          out += String(d);
          const m = /listening on (\S+)/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[1] ?? "");
          }
        });
      });
      const me = await fetch(`${url}/rest/1/local-dev-code/user.current`, { method: "POST" });
      expect(me.status).toBe(200);
      expect((await me.json()).result).toEqual({ ID: "1", ACTIVE: true });
      const wrong = await fetch(`${url}/rest/1/other-code/user.current`, { method: "POST" });
      expect(wrong.status).toBe(401);
    } finally {
      child.kill("SIGTERM");
    }
  }, 60_000);
});

describe("the client's shape, shipped from runtime/client/shape.ts (issue 27)", () => {
  it("ships the file's text after its marker, with its own imports, alike from an LF or a CRLF checkout", async () => {
    const { clientShape } = await import("../../generator/emit/client/index.js");
    const { shapeEntries } = await import("../../generator/cli/runtime.js");
    const text = readFileSync(join(ROOT, "runtime/client/shape.ts"), "utf8");
    const lf = clientShape(shapeEntries(text));
    expect(clientShape(shapeEntries(text.replace(/\n/g, "\r\n")))).toEqual(lf);
    expect(readFileSync(join(ROOT, "output/client/shape.d.ts"), "utf8")).toContain(lf.body);
    // The imports are the file's: a name added there is imported in the package, under the configured name.
    expect(lf.imports.get("collab-platform-api-types/common")).toEqual(["Time"]);
    expect(lf.imports.get("./index.js")).toContain("CallResult as RuntimeCallResult");
    expect(() => clientShape({})).toThrow(/shape\.ts is missing/);
  });
});
