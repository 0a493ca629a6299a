import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, SPEC_PATH } from "./helpers.js";

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

  it("hints name the dialect documentation inside node_modules, a file the user has", () => {
    writeFileSync(join(dir, "api/broken.md"), readFileSync(join(ROOT, SPEC_PATH), "utf8").replace("`id`* integer", "`id`* intger"));
    const r = run(["lint", "--spec", "api/broken.md"]);
    const docs = /Use a type word of (\S+)#types/.exec(r.stdout)?.[1];
    expect(docs).toBe("node_modules/collab-rest-codegen/spec-source/README.md");
    expect(existsSync(join(dir, docs ?? "nowhere"))).toBe(true);
  });
});
