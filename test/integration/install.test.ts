import { execFileSync, spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, SPEC_PATH } from "../helpers.js";

/**
 * The generator as another repo gets it (D19): `npm pack`, an install of the tarball into a fresh project, then
 * `generate` and `generate --check` there through the package's bin. The install prefers the npm cache that
 * `npm ci` filled; it asks the npm registry only for the dependency metadata a lockfile-driven `npm ci` never caches.
 */
const dir = mkdtempSync(join(tmpdir(), "crc-install-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bin = () => join(dir, "node_modules/.bin/collab-rest-codegen");
const run = (args: string[], cwd = dir) => {
  const r = spawnSync(bin(), args, { cwd, encoding: "utf8", timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

beforeAll(() => {
  mkdirSync(join(dir, "packs"));
  execFileSync("npm", ["pack", ROOT, "--ignore-scripts", "--pack-destination", "packs"], { cwd: dir, stdio: "pipe" });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "team-api", version: "1.0.0", private: true, type: "module" }));
  const pack = readdirSync(join(dir, "packs")).find((f) => f.endsWith(".tgz")) ?? "";
  execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--save-dev", `./packs/${pack}`], { cwd: dir, stdio: "pipe" });
  mkdirSync(join(dir, "api"));
  cpSync(join(ROOT, SPEC_PATH), join(dir, "api/platform.md"));
  writeFileSync(join(dir, "codegen.config.yaml"), "spec: api/platform.md\nout: generated\nskeleton: src/handlers.ts\n");
}, 120_000);

describe("installed in another repo", () => {
  it("the tarball holds the built CLI, the templates and the dialect docs, and no source or tests", () => {
    const files: string[] = [];
    const walk = (d: string, prefix: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(d, e.name), `${prefix}${e.name}/`);
        else files.push(`${prefix}${e.name}`);
      }
    };
    walk(join(dir, "node_modules/collab-rest-codegen"), "");
    expect(files).toContain("dist/generator/cli/main.js");
    expect(files).toContain("spec-source/README.md");
    expect(files).toContain("CHANGELOG.md");
    expect(files.some((f) => f.startsWith("templates/"))).toBe(true);
    expect(files.filter((f) => f.startsWith("test/") || f.startsWith("generator/") || f.startsWith("output/"))).toEqual([]);
  });

  it("generate, then generate --check, through the package's bin", () => {
    const r = run(["generate"]);
    expect(r.stderr).toMatch(/wrote \d+ files to generated/);
    expect(r.code).toBe(0);
    expect(existsSync(join(dir, "generated/client/index.js"))).toBe(true);
    expect(readFileSync(join(dir, "src/handlers.ts"), "utf8")).toContain('from "collab-platform-api-server"');
    expect(JSON.parse(readFileSync(join(dir, "generated/manifest.json"), "utf8")).spec.file).toBe("api/platform.md");
    const check = run(["generate", "--check"]);
    expect(check.code).toBe(0);
    expect(check.stderr).toContain("files up to date");
  });

  it("init in the installed project: the spec found, and a $schema line that resolves from the config's folder (issue 25)", () => {
    const team = join(dir, "team");
    mkdirSync(join(team, "docs"), { recursive: true });
    cpSync(join(ROOT, SPEC_PATH), join(team, "docs/api.md"));
    const r = run(["init", "team"]);
    expect(r.code).toBe(0);
    const text = readFileSync(join(team, "codegen.config.yaml"), "utf8");
    const schema = /^# yaml-language-server: \$schema=(\S+)$/m.exec(text)?.[1] ?? "";
    expect(schema).toBe("../node_modules/collab-rest-codegen/templates/config.schema.json");
    expect(JSON.parse(readFileSync(join(team, schema), "utf8")).title).toContain("collab-rest-codegen");
    expect(text).toMatch(/^spec: docs\/api\.md$/m);
    const gen = spawnSync(bin(), ["generate"], { cwd: team, encoding: "utf8", timeout: 60_000 });
    expect(gen.status).toBe(0);
  });

  it("installs from a git+file:// clone, built by its prepare script, as the README's first way says (issue 25)", () => {
    const gitDir = join(dir, "git-install");
    mkdirSync(join(gitDir, "app"), { recursive: true });
    execFileSync("git", ["clone", "--quiet", "--no-hardlinks", ROOT, join(gitDir, "repo")]);
    writeFileSync(join(gitDir, "app/package.json"), JSON.stringify({ name: "git-app", version: "1.0.0", private: true, type: "module" }));
    execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--save-dev", `git+file://${join(gitDir, "repo")}`], { cwd: join(gitDir, "app"), stdio: "pipe" });
    const installed = join(gitDir, "app/node_modules/collab-rest-codegen");
    expect(existsSync(join(installed, "dist/generator/cli/main.js"))).toBe(true);
    mkdirSync(join(gitDir, "app/api"));
    cpSync(join(ROOT, SPEC_PATH), join(gitDir, "app/api/platform.md"));
    const r = spawnSync(join(gitDir, "app/node_modules/.bin/collab-rest-codegen"), ["generate", "--spec", "api/platform.md", "--out", "generated"], { cwd: join(gitDir, "app"), encoding: "utf8", timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(join(gitDir, "app/generated/client/index.js"))).toBe(true);
  }, 300_000);

  it("hints name the dialect documentation inside node_modules, a file the user has", () => {
    writeFileSync(join(dir, "api/broken.md"), readFileSync(join(ROOT, SPEC_PATH), "utf8").replace("`id`* integer", "`id`* frobnicate"));
    const r = run(["lint", "--spec", "api/broken.md"]);
    const docs = /Use a type word of (\S+)#types/.exec(r.stdout)?.[1];
    expect(docs).toBe("node_modules/collab-rest-codegen/spec-source/README.md");
    expect(existsSync(join(dir, docs ?? "nowhere"))).toBe(true);
  });

  /** `npx collab-rest-codegen generate --watch` in the installed project, in a process group of its own. */
  function watchThroughNpx() {
    const child = spawn("npx", ["--no-install", "collab-rest-codegen", "generate", "--watch"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"], detached: true });
    const state = { err: "", closed: false };
    child.stderr.on("data", (d: Buffer) => {
      state.err += String(d);
    });
    // Closed when every process holding the pipe is gone: npm, its shell, and the watcher.
    const closed = new Promise<void>((r) => child.stderr.on("close", () => r()));
    return { child, state, closed };
  }
  const until = async (test: () => boolean, ms: number) => {
    const end = Date.now() + ms;
    while (!test() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    return test();
  };

  it("--watch through npx stops on Ctrl-C (SIGINT to the process group): a clean stop, no process left", async () => {
    const w = watchThroughNpx();
    expect(await until(() => w.state.err.includes("watching"), 30_000)).toBe(true);
    process.kill(-(w.child.pid ?? 0), "SIGINT");
    await w.closed;
    expect(w.state.err).toContain("SIGINT, stopped watching");
    expect(w.state.err).not.toContain("internal error");
  });

  it("mock through npx: serves, then stops when npm alone gets SIGTERM, and on Ctrl-C to the group (issue 15)", async () => {
    for (const how of ["npm", "group"] as const) {
      const child = spawn("npx", ["--no-install", "collab-rest-codegen", "mock", "--spec", "api/platform.md", "--http"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"], detached: true });
      const state = { out: "", err: "" };
      child.stdout.on("data", (d: Buffer) => (state.out += String(d)));
      child.stderr.on("data", (d: Buffer) => (state.err += String(d)));
      const closed = new Promise<void>((r) => child.stderr.on("close", () => r()));
      expect(await until(() => state.out.includes("listening on"), 30_000)).toBe(true);
      const url = /listening on (\S+)/.exec(state.out)?.[1] ?? "";
      expect((await fetch(`${url}/rest/1/c/user.current`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).status).toBe(200);
      if (how === "npm") child.kill("SIGTERM");
      else process.kill(-(child.pid ?? 0), "SIGINT");
      await closed;
      expect(state.err).toContain(how === "npm" ? "the parent process exited, stopped" : "SIGINT, stopped");
      expect(state.err).not.toContain("internal error");
    }
  });

  it("--watch through npx stops when npm alone gets SIGTERM (npm does not pass it on): no orphan keeps watching", async () => {
    const w = watchThroughNpx();
    expect(await until(() => w.state.err.includes("watching"), 30_000)).toBe(true);
    w.child.kill("SIGTERM");
    await w.closed;
    expect(w.state.err).toContain("the parent process exited, stopped watching");
  });
});
