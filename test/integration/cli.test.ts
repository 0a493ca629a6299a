import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sha256 } from "../../generator/util/hash.js";
import { ROOT, RUNTIME, SPEC_PATH, SPEC_TEXT } from "../helpers.js";

const BIN = join(ROOT, "dist/generator/cli/main.js");
const work = mkdtempSync(join(tmpdir(), "crc-cli-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function run(args: string[], cwd = work) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, prefix: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name), `${prefix}${e.name}/`);
      else out[`${prefix}${e.name}`] = sha256(readFileSync(join(d, e.name), "utf8"));
    }
  };
  if (existsSync(dir)) walk(dir, "");
  return out;
}

function project(name: string, spec = SPEC_TEXT): string {
  const dir = join(work, name);
  cpSync(join(ROOT, "codegen.config.yaml"), join(dir, "codegen.config.yaml"));
  // The spec and its dialect page; the reference copy (`platform-docs/`, 27 MB) is no input of these runs.
  cpSync(join(ROOT, "spec-source"), join(dir, "spec-source"), { recursive: true, filter: (src) => !src.includes("platform-docs") });
  writeFileSync(join(dir, SPEC_PATH), spec);
  return dir;
}

describe("generate", () => {
  it("the committed output is what generate produces (generate --check in the repo)", () => {
    const r = run(["generate", "--check"], ROOT);
    expect(r.stderr).toContain("up to date");
    expect(r.code).toBe(0);
  });

  it("writes the contract's layout, byte-identical across runs, with a manifest of every file's sha256", () => {
    const dir = project("twice");
    expect(run(["generate"], dir).code).toBe(0);
    const first = tree(join(dir, "output"));
    const runtimeOf = (pkg: string) =>
      Object.keys(RUNTIME)
        // The client's shape ships as client/shape.d.ts from its source, not as the runtime's compiled file.
        .filter((p) => (p.startsWith("shared/") || p.startsWith(`${pkg}/`)) && !p.startsWith("client/shape."))
        .map((p) => `${pkg}/runtime/${p}`);
    // Each area is an entry of the client and of the types (D14), with the same files.
    const areas = Object.keys(first).flatMap((p) => /^types\/areas\/(.+)\.d\.ts$/.exec(p)?.[1] ?? []);
    expect(areas).toEqual(expect.arrayContaining(["tasks", "telephony", "user"]));
    const areaFiles = areas.flatMap((a) => [`types/areas/${a}.d.ts`, ...["calls.d.ts", "index.d.ts", "index.js", "methods.d.ts", "methods.js"].map((f) => `client/areas/${a}/${f}`)]);
    expect(Object.keys(first).sort()).toEqual(
      [
        ...areaFiles,
        ".gitattributes",
        "client/CHANGELOG.md",
        "client/README.md",
        "client/calls.d.ts",
        "client/index.d.ts",
        "client/index.js",
        "client/methods.d.ts",
        "client/methods.js",
        "client/package.json",
        "client/shape.d.ts",
        ...runtimeOf("client"),
        "manifest.json",
        "model.json",
        "openapi/openapi.legacy.json",
        "openapi/openapi.legacy.yaml",
        "openapi/openapi.v3.json",
        "openapi/openapi.v3.yaml",
        "server/CHANGELOG.md",
        "server/README.md",
        "server/documentation.d.ts",
        "server/documentation.js",
        "server/index.d.ts",
        "server/index.js",
        "server/methods.d.ts",
        "server/methods.js",
        "server/mock.d.ts",
        "server/mock.js",
        "server/package.json",
        ...runtimeOf("server"),
        "server/seed.schema.json",
        "server/skeleton/handlers.ts",
        "types/CHANGELOG.md",
        "types/README.md",
        "types/common.d.ts",
        "types/index.d.ts",
        "types/index.js",
        "types/package.json",
        "types/spec/collaboration-platform-api.md",
      ].sort(),
    );
    // The runtimes are compiled TypeScript: no Handlebars template holds runtime code.
    expect(runtimeOf("client").length + runtimeOf("server").length).toBeGreaterThan(20);
    expect(run(["generate"], dir).code).toBe(0);
    expect(tree(join(dir, "output"))).toEqual(first);
    const manifest = JSON.parse(readFileSync(join(dir, "output/manifest.json"), "utf8"));
    expect(manifest.spec).toEqual({ file: SPEC_PATH, sha256: sha256(SPEC_TEXT) });
    for (const [path, hash] of Object.entries(manifest.files)) expect(first[path]).toBe(hash);
    expect(manifest.userOwned).toEqual(["server/skeleton/handlers.ts"]);
    const all = Object.keys(first).map((p) => readFileSync(join(dir, "output", p), "utf8"));
    for (const [i, text] of all.entries()) {
      expect(text).not.toContain("\r");
      expect(text).not.toContain(dir);
      const path = Object.keys(first)[i] ?? "";
      if (path === "server/skeleton/handlers.ts") expect(text.slice(0, 120)).toMatch(/^\/\/ User-owned: collab-rest-codegen creates this file when it is absent/);
      else expect(text.slice(0, 200)).toMatch(/Generated by collab-rest-codegen from spec-source\/collaboration-platform-api\.md\. Do not edit\./);
    }
  });

  it("--check lists stale, missing and extra files and exits 1; it writes nothing", () => {
    const dir = project("check");
    run(["generate"], dir);
    writeFileSync(join(dir, "output/model.json"), "{}\n");
    rmSync(join(dir, "output/openapi/openapi.v3.yaml"));
    writeFileSync(join(dir, "output/old.json"), "{}\n");
    writeFileSync(join(dir, "output/mine.json"), "{}\n");
    // old.json as a file of an older generation: the manifest lists it.
    const manifest = JSON.parse(readFileSync(join(dir, "output/manifest.json"), "utf8"));
    manifest.files["old.json"] = sha256("{}\n");
    writeFileSync(join(dir, "output/manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    const before = tree(join(dir, "output"));
    const r = run(["generate", "--check"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("stale: model.json");
    expect(r.stderr).toContain("missing: openapi/openapi.v3.yaml");
    expect(r.stderr).toContain("extra: old.json");
    expect(r.stderr).toContain("stale: manifest.json");
    expect(r.stderr).toContain("untracked: mine.json");
    expect(tree(join(dir, "output"))).toEqual(before);
  });

  it("a spec with errors exits 2 and leaves the previous output exactly as it was", () => {
    const dir = project("broken");
    run(["generate"], dir);
    const before = tree(join(dir, "output"));
    const broken = SPEC_TEXT.replace("**tasks.task.unpin**.", "**tasks.task.getaccess**.");
    writeFileSync(join(dir, SPEC_PATH), broken);
    const r = run(["generate"], dir);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/^spec-source\/collaboration-platform-api\.md:191:3: error duplicate-method: Method 'tasks\.task\.getaccess' \(legacy\) is defined twice \(first defined at spec-source\/collaboration-platform-api\.md:184:3\)/m);
    expect(tree(join(dir, "output"))).toEqual(before);
    expect(readdirSync(dir).filter((n) => n.startsWith("output."))).toEqual([]);
  });

  it("the handler skeleton is user-owned: kept when edited, follows the spec by insertions only, never stale", () => {
    const dir = project("skeleton");
    run(["generate"], dir);
    const path = join(dir, "output/server/skeleton/handlers.ts");
    const edited = readFileSync(path, "utf8").replace('"tasks.task.get": async', '"tasks.task.get": async /* mine */');
    writeFileSync(path, edited);
    expect(run(["generate", "--check"], dir).code).toBe(0);
    const r = run(["generate"], dir);
    expect(r.code).toBe(0);
    expect(readFileSync(path, "utf8")).toBe(edited);
    // The spec renames tasks.task.unpin everywhere: a stub for the new name, a @deprecated line on the old handler.
    writeFileSync(join(dir, SPEC_PATH), SPEC_TEXT.replaceAll("tasks.task.unpin", "tasks.task.unpinned"));
    const check = run(["generate", "--check"], dir);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain("stale: server/skeleton/handlers.ts (no handlers for tasks.task.unpinned; generate adds them)");
    const moved = run(["generate"], dir);
    expect(moved.stderr).toContain("output/server/skeleton/handlers.ts: added handler stubs: tasks.task.unpinned");
    expect(moved.stderr).toContain("output/server/skeleton/handlers.ts: marked @deprecated (no longer in the spec): tasks.task.unpin");
    const merged = readFileSync(path, "utf8");
    const stub = '  /** tasks.task.unpinned: Unpins the task in the current user\'s task list */\n  "tasks.task.unpinned": async (_params, _context) => notImplemented("tasks.task.unpinned"),\n';
    const note = "  /** @deprecated The spec no longer has `tasks.task.unpin` (it was at line 191 of the spec of version 0.1.0); the router ignores this handler. Delete it when you no longer need it. */\n";
    // Nothing but the two insertions: the user's bytes around them are as they were.
    const at = edited.indexOf('  /** tasks.task.unpin:');
    expect(merged).toBe(edited.slice(0, at) + stub + edited.slice(at, edited.indexOf('  "tasks.task.unpin":')) + note + edited.slice(edited.indexOf('  "tasks.task.unpin":')));
    expect(run(["generate", "--check"], dir).code).toBe(0);
    expect(run(["generate"], dir).stderr).not.toContain("handlers.ts:");
    expect(readFileSync(path, "utf8")).toBe(merged);
    rmSync(path);
    expect(run(["generate", "--check"], dir).stderr).toContain("missing: server/skeleton/handlers.ts");
    run(["generate"], dir);
    expect(readFileSync(path, "utf8")).toContain('"tasks.task.unpinned": async');
  });

  it("--templates replaces a built-in template by path", () => {
    const dir = project("templates");
    mkdirSync(join(dir, "my-templates/client"), { recursive: true });
    writeFileSync(join(dir, "my-templates/client/README.md.hbs"), "<!-- {{header}} -->\n# {{name}} for our team\n");
    expect(run(["generate", "--templates", "my-templates"], dir).code).toBe(0);
    expect(readFileSync(join(dir, "output/client/README.md"), "utf8")).toBe(
      "<!-- Generated by collab-rest-codegen from spec-source/collaboration-platform-api.md. Do not edit. -->\n# collab-platform-api-client for our team\n",
    );
    expect(readFileSync(join(dir, "output/types/README.md"), "utf8")).toContain("TypeScript types of");
  });

  it("--spec and --out override the config", () => {
    const dir = project("override");
    writeFileSync(join(dir, "other.md"), SPEC_TEXT);
    expect(run(["generate", "--spec", "other.md", "--out", "gen"], dir).code).toBe(0);
    expect(existsSync(join(dir, "gen/model.json"))).toBe(true);
    expect(existsSync(join(dir, "output"))).toBe(false);
    expect(JSON.parse(readFileSync(join(dir, "gen/manifest.json"), "utf8")).spec.file).toBe("other.md");
  });
});

describe("usage errors and formats", () => {
  it.each([
    [["generate", "--spec", "missing.md"], "spec file not found: missing.md"],
    [["generate", "--config", "missing.yaml"], "config file not found: missing.yaml"],
    [["generate", "--format", "xml"], "argument 'xml' is invalid"],
    [["frobnicate"], "unknown command 'frobnicate'"],
    [["generate", "--templates", "nowhere"], "templates folder not found: nowhere"],
    // A folder is read only when it is laid out like the platform's reference (issue 28).
    [["generate", "--spec", "."], "is a folder, but not one laid out like the platform's reference: expected Markdown pages under api-reference/"],
    [["diff", "--from", "spec-source/collaboration-platform-api.md", "--spec", "."], "old folder is a file, not a folder: spec-source/collaboration-platform-api.md"],
  ])("%j exits 3", (args, message) => {
    const dir = project(`usage-${String(args[0])}-${String(args[1] ?? "")}-${String(args[2] ?? "")}`.replace(/[^\w-]/g, "_"));
    const r = run(args, dir);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(message);
  });

  it("lint prints JSON diagnostics and exits 0 on the real spec, 2 on a broken one", () => {
    const dir = project("lint");
    const ok = run(["lint", "--format", "json"], dir);
    expect(ok.code).toBe(0);
    // The shipped config settles the spec's two readings with ignore rules and their reasons (issue 25): no standing
    // warning. Without the rules the two warnings are there, at their positions.
    expect(JSON.parse(ok.stdout)).toEqual([]);
    const raw = run(["lint", "--format", "json", "--config", "none.yaml"], dir);
    writeFileSync(join(dir, "none.yaml"), "spec: spec-source/collaboration-platform-api.md\n");
    const unsettled = run(["lint", "--format", "json", "--config", "none.yaml"], dir);
    expect(raw.code).toBe(3);
    expect(JSON.parse(unsettled.stdout)).toEqual([
      expect.objectContaining({ file: SPEC_PATH, line: 209, severity: "warning", code: "ambiguous-reading", related: expect.objectContaining({ line: 209 }) }),
      expect.objectContaining({ file: SPEC_PATH, line: 324, column: 3, severity: "warning", code: "missing-scope" }),
    ]);
    writeFileSync(join(dir, SPEC_PATH), "no title\n");
    const bad = run(["lint", "--format", "github"], dir);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toContain(`::error file=${SPEC_PATH},line=1,col=1::missing-title:`);
    expect(existsSync(join(dir, "output"))).toBe(false);
  });

  it("a spec that is not UTF-8 is a diagnostic with a position, exit 2", () => {
    const dir = project("latin1");
    writeFileSync(join(dir, SPEC_PATH), Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a]));
    const r = run(["generate"], dir);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain(`${SPEC_PATH}:1:1: error unreadable-file: Cannot read the spec: the file is not valid UTF-8`);
  });

  it("--version prints the package version", () => {
    const r = run(["--version"]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version);
  });
});

describe("--help of each command: an example, the exit codes, what is required, where the docs are (issue 25)", () => {
  it.each(["generate", "lint", "diff", "mock", "init"])("%s --help", (command) => {
    const r = spawnSync(process.execPath, [join(ROOT, "dist/generator/cli/main.js"), command, "--help"], { encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("Examples:");
    expect(r.stdout).toContain(`collab-rest-codegen ${command}`);
    expect(r.stdout).toMatch(/Exit codes: 0 /);
    expect(r.stdout).toMatch(/Required: /);
    if (command === "diff") expect(r.stdout).toContain("Required: --from.");
    expect(r.stdout).toMatch(/README\.md#/);
  });
});

describe("package metadata comes from the config; a set of packages that disagree is an error (issue 25)", () => {
  const BIN = join(ROOT, "dist/generator/cli/main.js");
  const run = (args: string[], cwd: string) => spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: "utf8", timeout: 60_000 });
  it("license, repository, publishConfig, private, author, homepage and keywords in all three package.json", () => {
    const dir = mkdtempSync(join(work, "meta-"));
    mkdirSync(join(dir, "spec-source"));
    writeFileSync(join(dir, SPEC_PATH), SPEC_TEXT);
    writeFileSync(
      join(dir, "codegen.config.yaml"),
      [
        "spec: spec-source/collaboration-platform-api.md",
        "out: output",
        "package:",
        "  license: Apache-2.0",
        "  author: Acme Integrations",
        "  homepage: https://acme.example/api",
        "  repository: { type: git, url: 'git+https://git.example/acme/api.git', directory: output }",
        "  keywords: [platform, api]",
        "  private: false",
        "  publishConfig: { access: public, registry: 'https://npm.acme.example/' }",
        "",
      ].join("\n"),
    );
    expect(run(["generate"], dir).status).toBe(0);
    for (const kind of ["types", "client", "server"]) {
      const pkg = JSON.parse(readFileSync(join(dir, `output/${kind}/package.json`), "utf8"));
      expect(pkg).toMatchObject({
        license: "Apache-2.0",
        author: "Acme Integrations",
        homepage: "https://acme.example/api",
        repository: { type: "git", url: "git+https://git.example/acme/api.git", directory: "output" },
        keywords: ["platform", "api"],
        private: false,
        publishConfig: { access: "public", registry: "https://npm.acme.example/" },
      });
      // The members follow the description, before the package's own.
      expect(Object.keys(pkg).slice(0, 5)).toEqual(["//", "name", "version", "description", "license"]);
    }
    expect(run(["generate", "--check"], dir).status).toBe(0);
    const bad = mkdtempSync(join(work, "meta-bad-"));
    writeFileSync(join(bad, "codegen.config.yaml"), "package:\n  licence: MIT\n");
    const r = run(["lint"], bad);
    expect(r.status).toBe(3);
    expect(r.stderr).toContain("codegen.config.yaml:2:3: unknown key 'licence' in 'package'; did you mean 'license'?");
  });

  it("an edited package.json kept while the version moves: exit 3, nothing written (before: exit 0 and a dependency on a version never written)", () => {
    const dir = mkdtempSync(join(work, "meta-edit-"));
    mkdirSync(join(dir, "spec-source"));
    writeFileSync(join(dir, SPEC_PATH), SPEC_TEXT);
    writeFileSync(join(dir, "codegen.config.yaml"), "spec: spec-source/collaboration-platform-api.md\nout: output\n");
    expect(run(["generate"], dir).status).toBe(0);
    const path = join(dir, "output/types/package.json");
    writeFileSync(path, readFileSync(path, "utf8").replace('"description"', '"license": "MIT",\n  "description"'));
    writeFileSync(join(dir, SPEC_PATH), SPEC_TEXT.replace("**tasks.task.getaccess**.", "**tasks.task.pin**. Scope `task`. Any user. Pins a task. `id`* integer. Result: boolean.\n\n**tasks.task.getaccess**."));
    const before = readFileSync(join(dir, "output/client/package.json"), "utf8");
    const r = run(["generate"], dir);
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(/the packages would have different versions \(types 0\.1\.0, client 0\.2\.0, server 0\.2\.0\); output was not changed/);
    expect(readFileSync(join(dir, "output/client/package.json"), "utf8")).toBe(before);
  });
});
