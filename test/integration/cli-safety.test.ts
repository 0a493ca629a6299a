import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, SPEC_PATH, SPEC_TEXT } from "../helpers.js";
import { filesBelow } from "../helpers.js";

/**
 * Issue 9, the generator's half: each reproduction of the issue as a test of the built CLI in a scratch project.
 * Hang guards are ten times the expected time (D6); no test measures speed.
 */
const BIN = join(ROOT, "dist/generator/cli/main.js");
const work = mkdtempSync(join(tmpdir(), "crc-safety-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function run(args: string[], cwd: string, env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: "utf8", timeout: 60_000, env: { ...process.env, ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function project(name: string, config = "spec: spec-source/collaboration-platform-api.md\nout: output\n"): string {
  const dir = join(work, name);
  mkdirSync(join(dir, "spec-source"), { recursive: true });
  writeFileSync(join(dir, SPEC_PATH), SPEC_TEXT);
  writeFileSync(join(dir, "codegen.config.yaml"), config);
  return dir;
}

const files = filesBelow;

describe("the generator never deletes what it did not write", () => {
  it("`out: .` is refused: the folder holds the spec and the config; nothing is written, .git survives", () => {
    const dir = project("out-dot", "spec: spec-source/collaboration-platform-api.md\nout: .\n");
    mkdirSync(join(dir, ".git"));
    writeFileSync(join(dir, ".git/HEAD"), "ref: refs/heads/main\n");
    const before = files(dir);
    const r = run(["generate"], dir);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/the output folder .* contains the spec/);
    expect(r.stderr).not.toContain("    at ");
    expect(files(dir)).toEqual(before);
    // --force does not lift this refusal.
    expect(run(["generate", "--force"], dir).code).toBe(3);
    expect(files(dir)).toEqual(before);
  });

  it("an output folder that is an ancestor of the config is refused", () => {
    const dir = project("ancestor");
    mkdirSync(join(dir, "conf"));
    renameSync(join(dir, "codegen.config.yaml"), join(dir, "conf/codegen.config.yaml"));
    writeFileSync(join(dir, "conf/codegen.config.yaml"), "spec: ../spec-source/collaboration-platform-api.md\nout: ..\n");
    const r = run(["generate", "--config", "conf/codegen.config.yaml", "--spec", "/dev/null/none"], dir);
    expect(r.code).toBe(3);
    const r2 = run(["generate", "--config", "conf/codegen.config.yaml"], dir);
    expect(r2.code).toBe(3);
    expect(r2.stderr).toContain("contains the");
  });

  it("`out: src` keeps the user's src/main.ts on the first run and on the second", () => {
    const dir = project("out-src", "spec: spec-source/collaboration-platform-api.md\nout: src\n");
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "src/main.ts"), "console.log('mine');\n");
    expect(run(["generate"], dir).code).toBe(0);
    expect(readFileSync(join(dir, "src/main.ts"), "utf8")).toBe("console.log('mine');\n");
    expect(existsSync(join(dir, "src/model.json"))).toBe(true);
    expect(run(["generate"], dir).code).toBe(0);
    expect(readFileSync(join(dir, "src/main.ts"), "utf8")).toBe("console.log('mine');\n");
    const check = run(["generate", "--check"], dir);
    expect(check.code).toBe(0);
    expect(check.stderr).toContain("untracked: main.ts");
  });

  it("a user file beside the skeleton survives every run, and a removed generated file is recreated", () => {
    const dir = project("beside");
    expect(run(["generate"], dir).code).toBe(0);
    writeFileSync(join(dir, "output/server/skeleton/helpers.ts"), "export const mine = 1;\n");
    writeFileSync(join(dir, SPEC_PATH), SPEC_TEXT.replace("# Collaboration Platform REST API Specification", "# Renamed"));
    expect(run(["generate"], dir).code).toBe(0);
    expect(readFileSync(join(dir, "output/server/skeleton/helpers.ts"), "utf8")).toBe("export const mine = 1;\n");
    expect(readFileSync(join(dir, "output/model.json"), "utf8")).toContain('"title": "Renamed"');
  });

  it("a folder that looks like a project is refused unless --force; with --force only generated files are written", () => {
    const dir = project("projectlike", "spec: spec-source/collaboration-platform-api.md\nout: app\n");
    mkdirSync(join(dir, "app/.git"), { recursive: true });
    writeFileSync(join(dir, "app/package.json"), '{"name":"app"}\n');
    writeFileSync(join(dir, "app/.git/HEAD"), "x\n");
    const r = run(["generate"], dir);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("looks like a project (.git, package.json");
    expect(files(join(dir, "app"))).toEqual([".git/HEAD", "package.json"]);
    expect(run(["generate", "--force"], dir).code).toBe(0);
    expect(readFileSync(join(dir, "app/package.json"), "utf8")).toBe('{"name":"app"}\n');
    expect(readFileSync(join(dir, "app/.git/HEAD"), "utf8")).toBe("x\n");
    expect(existsSync(join(dir, "app/types/index.d.ts"))).toBe(true);
  });

  it("--out naming a file is a usage error and the file stays", () => {
    const dir = project("out-file");
    writeFileSync(join(dir, "notes.txt"), "keep me\n");
    const r = run(["generate", "--out", "notes.txt"], dir);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("is a file, not a folder");
    expect(readFileSync(join(dir, "notes.txt"), "utf8")).toBe("keep me\n");
  });

  it("a symlinked output folder is written through and stays a symlink", () => {
    const dir = project("symlink");
    mkdirSync(join(dir, "real-out"));
    symlinkSync(join(dir, "real-out"), join(dir, "output"), "dir");
    expect(run(["generate"], dir).code).toBe(0);
    expect(lstatSync(join(dir, "output")).isSymbolicLink()).toBe(true);
    expect(existsSync(join(dir, "real-out/model.json"))).toBe(true);
    expect(run(["generate", "--check"], dir).code).toBe(0);
  });

  it.each([["/proc/crc-x"], ["/sys/crc-x"]])("an output path that cannot be created (%s) is a usage error with the OS reason", (out) => {
    const dir = project(`uncreatable-${out.split("/")[1]}`);
    const r = run(["generate", "--out", out], dir);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/cannot (create|write|use) .*: E[A-Z]+: /);
    expect(r.stderr).not.toContain("    at ");
  });

  it("an edited generated file is kept with a warning; --check calls it stale; --force replaces it", () => {
    const dir = project("edited");
    run(["generate"], dir);
    writeFileSync(join(dir, "output/types/README.md"), "my notes\n");
    writeFileSync(join(dir, SPEC_PATH), SPEC_TEXT.replace("# Collaboration Platform REST API Specification", "# Renamed"));
    const r = run(["generate"], dir);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("output/types/README.md: warning: was edited since the last run; kept");
    expect(readFileSync(join(dir, "output/types/README.md"), "utf8")).toBe("my notes\n");
    expect(run(["generate", "--check"], dir).stderr).toContain("stale: types/README.md");
    expect(run(["generate", "--force"], dir).code).toBe(0);
    expect(readFileSync(join(dir, "output/types/README.md"), "utf8")).toContain("Renamed");
  });

  it("--check: untracked files do not fail it; a file the last manifest lists but no longer generated is extra", () => {
    const dir = project("check");
    run(["generate"], dir);
    writeFileSync(join(dir, "output/mine.txt"), "x\n");
    mkdirSync(join(dir, "output/mydir"));
    writeFileSync(join(dir, "output/mydir/a.txt"), "x\n");
    const ok = run(["generate", "--check"], dir);
    expect(ok.code).toBe(0);
    expect(ok.stderr).toContain("untracked: mine.txt");
    expect(ok.stderr).toContain("untracked: mydir/");
    expect(ok.stderr).toContain("untracked: server/skeleton/handlers.ts");
    // A file of an older generation: listed in the manifest, no longer generated.
    const manifest = JSON.parse(readFileSync(join(dir, "output/manifest.json"), "utf8"));
    writeFileSync(join(dir, "output/old.json"), "{}\n");
    manifest.files["old.json"] = "0".repeat(64);
    writeFileSync(join(dir, "output/manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    const bad = run(["generate", "--check"], dir);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("extra: old.json");
  });

  it("the skeleton config key puts the seed outside the output folder; moving it leaves the old one with a notice", () => {
    const dir = project("skeleton-key", "spec: spec-source/collaboration-platform-api.md\nout: gen\nskeleton: src/handlers.ts\n");
    expect(run(["generate"], dir).code).toBe(0);
    expect(readFileSync(join(dir, "src/handlers.ts"), "utf8")).toContain('from "collab-platform-api-server"');
    expect(existsSync(join(dir, "gen/server/skeleton/handlers.ts"))).toBe(false);
    writeFileSync(join(dir, "src/handlers.ts"), "// mine\n");
    expect(run(["generate"], dir).code).toBe(0);
    expect(readFileSync(join(dir, "src/handlers.ts"), "utf8")).toBe("// mine\n");
    writeFileSync(join(dir, "codegen.config.yaml"), "spec: spec-source/collaboration-platform-api.md\nout: gen\nskeleton: server/handlers.ts\n");
    const moved = run(["generate"], dir);
    expect(moved.code).toBe(0);
    expect(moved.stderr).toContain("src/handlers.ts: notice: the skeleton now lives at server/handlers.ts; this file is yours and stays");
    expect(readFileSync(join(dir, "src/handlers.ts"), "utf8")).toBe("// mine\n");
    expect(existsSync(join(dir, "server/handlers.ts"))).toBe(true);
  });

  it("a generation killed by SIGKILL is finished or rolled back by the next run; nothing is left behind", async () => {
    const dir = project("cli-kill");
    run(["generate"], dir);
    writeFileSync(join(dir, "output/mine.txt"), "x\n");
    writeFileSync(join(dir, SPEC_PATH), SPEC_TEXT.replace("# Collaboration Platform REST API Specification", "# Killed"));
    for (const delay of [400, 900]) {
      const child = spawn(process.execPath, [BIN, "generate"], { cwd: dir, stdio: "ignore" });
      // Listened for from the start: a run that ends before the kill has sent its "exit" already, and a listener
      // added after it waited for ever (the hang guard's 60 s, on a quiet machine where generate takes 0.5 s).
      const exited = new Promise((r) => child.on("exit", r));
      await new Promise((r) => setTimeout(r, delay));
      child.kill("SIGKILL");
      await exited;
      const r = run(["generate", "--check"], dir);
      expect([0, 1]).toContain(r.code);
      expect(existsSync(join(dir, "output/.collab-rest-codegen"))).toBe(false);
      expect(readdirSync(dir).filter((n) => n.startsWith("output."))).toEqual([]);
      expect(readFileSync(join(dir, "output/mine.txt"), "utf8")).toBe("x\n");
      expect(run(["generate"], dir).code).toBe(0);
      expect(run(["generate", "--check"], dir).code).toBe(0);
    }
  });
});

describe("pathological specs are diagnostics, not crashes or stalls", () => {
  it("a line of 10,000 nested list markers is a positioned warning; generate exits 0", () => {
    const dir = project("deep");
    writeFileSync(join(dir, SPEC_PATH), `${SPEC_TEXT}\n${"- ".repeat(10_000)}x\n\n${"> ".repeat(10_000)}y\n`);
    const r = run(["lint", "--format", "json"], dir);
    expect(r.code).toBe(0);
    const deep = (JSON.parse(r.stdout) as Array<{ code: string; line: number; column: number }>).filter((d) => d.code === "nesting-too-deep");
    const lines = SPEC_TEXT.split("\n").length;
    expect(deep.map((d) => [d.line, d.column])).toEqual([
      [lines + 1, 65],
      [lines + 3, 65],
    ]);
  });
});

describe("messages a user can click", () => {
  it("paths are relative to the working directory, absolute in json, and hints name the shipped dialect docs", () => {
    const dir = project("paths");
    const sub = join(dir, "api");
    mkdirSync(sub);
    cpSync(join(dir, "spec-source"), join(sub, "spec"), { recursive: true });
    writeFileSync(join(sub, "codegen.config.yaml"), "spec: spec/collaboration-platform-api.md\nout: gen\n");
    const text = run(["lint", "--config", "api/codegen.config.yaml"], dir);
    expect(text.stdout).toMatch(/^api\/spec\/collaboration-platform-api\.md:324:3: warning missing-scope: /m);
    const json = JSON.parse(run(["lint", "--config", "api/codegen.config.yaml", "--format", "json"], dir).stdout) as Array<Record<string, string>>;
    const scope = json.find((d) => d.code === "missing-scope");
    expect(scope?.file).toBe("api/spec/collaboration-platform-api.md");
    expect(scope?.absoluteFile).toBe(join(sub, "spec/collaboration-platform-api.md"));
    expect(scope?.hint).toContain("Add 'Scope `name`.'");
    const github = run(["lint", "--format", "github"], sub, { GITHUB_WORKSPACE: dir });
    expect(github.stdout).toContain("::warning file=api/spec/collaboration-platform-api.md,line=324,col=3::");
    // Hints point at the dialect documentation where this generator is installed.
    writeFileSync(join(sub, "spec/collaboration-platform-api.md"), SPEC_TEXT.replace("`id`* integer", "`id`* frobnicate"));
    const hinted = run(["lint", "--config", "api/codegen.config.yaml"], dir);
    const docs = /Use a type word of (\S+)#types/.exec(hinted.stdout)?.[1];
    expect(docs).toBeDefined();
    expect(existsSync(join(dir, docs ?? "nowhere"))).toBe(true);
  });

  it("--fail-on-warnings exits 2 and writes nothing; an ignore rule by code and method silences that warning", () => {
    const dir = project("warnings");
    const r = run(["generate", "--fail-on-warnings"], dir);
    expect(r.code).toBe(2);
    expect(existsSync(join(dir, "output"))).toBe(false);
    writeFileSync(
      join(dir, "codegen.config.yaml"),
      "spec: spec-source/collaboration-platform-api.md\nout: output\nfailOnWarnings: true\nignore:\n  - code: missing-scope\n    method: event.unbind\n  - code: ambiguous-reading\n    method: telephony.externalCall.finish\n",
    );
    const ok = run(["generate"], dir);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe("");
    expect(ok.stderr).toContain("2 warning(s) silenced");
    writeFileSync(join(dir, "codegen.config.yaml"), "spec: spec-source/collaboration-platform-api.md\nout: output\nignore:\n  - code: missing-scope\n    method: tasks.task.get\n");
    const stale = run(["lint"], dir);
    expect(stale.stdout).toContain("missing-scope");
    expect(stale.stderr).toContain("codegen.config.yaml:4:5: notice: this ignore rule (missing-scope) matched no warning");
  });

  it("package names from the config: the packages' names and the types package they depend on (issue 7)", () => {
    const dir = project("names");
    writeFileSync(join(dir, "codegen.config.yaml"), 'spec: spec-source/collaboration-platform-api.md\nout: output\npackages:\n  types:\n    name: "@acme/platform-types"\n  server:\n    name: "@acme/platform-server"\n');
    expect(run(["generate"], dir).code).toBe(0);
    const pkg = (p: string) => JSON.parse(readFileSync(join(dir, "output", p, "package.json"), "utf8")) as { name: string; dependencies?: Record<string, string> };
    expect(pkg("types").name).toBe("@acme/platform-types");
    expect(pkg("server").name).toBe("@acme/platform-server");
    expect(pkg("client").name).toBe("collab-platform-api-client");
    expect(Object.keys(pkg("client").dependencies ?? {})).toEqual(["@acme/platform-types"]);
    expect(readFileSync(join(dir, "output/client/index.d.ts"), "utf8")).toContain('from "@acme/platform-types"');
    // A second run over the renamed packages changes nothing (updates are the normal case).
    expect(run(["generate", "--check"], dir).code).toBe(0);
    writeFileSync(join(dir, "codegen.config.yaml"), "packages:\n  types:\n    name: Acme Types\n");
    const r = run(["generate"], dir);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("codegen.config.yaml:3:11: 'packages.types.name' must be an npm package name");
  });

  it("the config's v3ErrorPrefix reaches every artifact (D11)", () => {
    const dir = project("prefix");
    writeFileSync(join(dir, "codegen.config.yaml"), "spec: spec-source/collaboration-platform-api.md\nout: output\nv3ErrorPrefix: platform\n");
    expect(run(["generate"], dir).code).toBe(0);
    const types = readFileSync(join(dir, "output/types/common.d.ts"), "utf8");
    expect(types).toContain('"BITRIX_REST_V3_EXCEPTION_INVALIDJSONEXCEPTION"');
    expect(types).not.toContain('"SERVICE_REST_V3_EXCEPTION_INVALIDJSONEXCEPTION"');
    expect(readFileSync(join(dir, "output/server/methods.js"), "utf8")).toContain("BITRIX_REST_V3_EXCEPTION_VALIDATION_REQUESTVALIDATIONEXCEPTION");
  });

  it.each([
    ["outt: x\n", "codegen.config.yaml:1:1: unknown key 'outt'"],
    ["out: 3\n", "codegen.config.yaml:1:6: 'out' must be a non-empty string"],
    ["version: banana\n", "codegen.config.yaml:1:10: 'version' must be a semantic version"],
    ["ignore:\n  - code: nope\n    line: 3\n", "codegen.config.yaml:2:11: 'code' must be a diagnostic code"],
    ["ignore:\n  - code: missing-scope\n", "codegen.config.yaml:2:5: an 'ignore' entry needs a 'method'"],
    ["ignore:\n  - code: duplicate-method\n    line: 2\n", "codegen.config.yaml:2:11: 'duplicate-method' is an error"],
    ["failOnWarnings: yes please\n", "codegen.config.yaml:1:17: 'failOnWarnings' must be true or false"],
    ["v3ErrorPrefix: bitrix\n", "codegen.config.yaml:1:16: 'v3ErrorPrefix' must be one of spec, platform"],
    ["out: [\n", "codegen.config.yaml:"],
  ])("config %j is a usage error at its position", (config, message) => {
    const dir = project(`config-${Math.random().toString(36).slice(2)}`, `spec: spec-source/collaboration-platform-api.md\n${config}`.replace(/^spec: .*\n(out: \[)/, "$1"));
    writeFileSync(join(dir, "codegen.config.yaml"), config);
    const r = run(["generate"], dir);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toContain("    at ");
  });

  it.each([
    ["client/README.md.hbs", "# x\n{{#each nope}}\n{{/if}}\n", /my-templates\/client\/README\.md\.hbs:2:\d+: error in template: /],
    ["client/README.md.hbs", "ok\n  {{missingVariable}}\n", /my-templates\/client\/README\.md\.hbs:2:5: error in template: "missingVariable" not defined in the template's view model/],
    ["types/README.md.hbs", "a\nb {{foo bar)}}\n", /my-templates\/types\/README\.md\.hbs:2:\d+: error in template: parse error/],
  ])("a broken template %s is a user error at its file, line and column, exit 3, no stack", (name, text, message) => {
    const dir = project(`tpl-${name.replace(/\W/g, "")}-${text.length}`);
    mkdirSync(join(dir, "my-templates", name.split("/")[0] ?? ""), { recursive: true });
    writeFileSync(join(dir, "my-templates", name), text);
    const r = run(["generate", "--templates", "my-templates"], dir);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toContain("internal error");
    expect(existsSync(join(dir, "output"))).toBe(false);
  });

  it("a template that renders code that does not parse is a user error, not an internal one", () => {
    const dir = project("tpl-bad-code");
    mkdirSync(join(dir, "my-templates/client"), { recursive: true });
    writeFileSync(join(dir, "my-templates/client/index.js.hbs"), "// {{header}}\nexport function (broken {\n");
    const r = run(["generate", "--templates", "my-templates"], dir);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("the code rendered from the templates in my-templates does not parse");
    expect(r.stderr).not.toContain("internal error");
    expect(existsSync(join(dir, "output"))).toBe(false);
  });

  it("a template file that matches no built-in template is a warning", () => {
    const dir = project("tpl-unknown");
    mkdirSync(join(dir, "my-templates/client"), { recursive: true });
    writeFileSync(join(dir, "my-templates/client/READ.md.hbs"), "x\n");
    const r = run(["generate", "--templates", "my-templates"], dir);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("my-templates/client/READ.md.hbs:1:1: warning: no built-in template has this path");
  });
});

describe("--watch keeps watching", () => {
  async function until(test: () => boolean, ms: number): Promise<boolean> {
    const end = Date.now() + ms;
    while (!test() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    return test();
  }

  it("regenerates after in-place writes, rename-replace, delete-then-create and a broken spec then its fix; exits 0 on SIGTERM", async () => {
    const dir = project("watch");
    const spec = join(dir, SPEC_PATH);
    const child = spawn(process.execPath, [BIN, "generate", "--watch"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    let err = "";
    child.stderr.on("data", (d: Buffer) => {
      err += String(d);
    });
    const title = () => /"title": "([^"]*)"/.exec(existsSync(join(dir, "output/model.json")) ? readFileSync(join(dir, "output/model.json"), "utf8") : "")?.[1];
    const retitle = (t: string) => SPEC_TEXT.replace("# Collaboration Platform REST API Specification", `# ${t}`);
    try {
      expect(await until(() => err.includes("watching"), 20_000)).toBe(true);
      expect(title()).toBe("Collaboration Platform REST API Specification");
      writeFileSync(spec, retitle("In place"));
      expect(await until(() => title() === "In place", 20_000)).toBe(true);
      // Write a temporary file and rename it over the spec: a new inode.
      writeFileSync(`${spec}.tmp`, retitle("Renamed over"));
      renameSync(`${spec}.tmp`, spec);
      expect(await until(() => title() === "Renamed over", 20_000)).toBe(true);
      writeFileSync(spec, retitle("After rename"));
      expect(await until(() => title() === "After rename", 20_000)).toBe(true);
      unlinkSync(spec);
      await new Promise((r) => setTimeout(r, 300));
      writeFileSync(spec, retitle("Recreated"));
      expect(await until(() => title() === "Recreated", 20_000)).toBe(true);
      writeFileSync(spec, retitle("Broken").replace("**tasks.task.unpin**.", "**tasks.task.getaccess**."));
      expect(await until(() => err.includes("was not changed"), 20_000)).toBe(true);
      expect(title()).toBe("Recreated");
      writeFileSync(spec, retitle("Fixed"));
      expect(await until(() => title() === "Fixed", 20_000)).toBe(true);
      // One line per run: the first run and five changes wrote; the broken spec was reported instead. The line
      // follows the write, so it is waited for.
      const runs = () => err.split("\n").filter((l) => /wrote \d+ files .* in \d+ ms/.test(l)).length;
      expect(await until(() => runs() === 6, 20_000)).toBe(true);
      await new Promise((r) => setTimeout(r, 500));
      expect(runs()).toBe(6);
      expect(err.split("\n").filter((l) => l.includes("was not changed"))).toHaveLength(1);
    } finally {
      child.kill("SIGTERM");
    }
    const code = await new Promise<number | null>((r) => child.on("exit", (c) => r(c)));
    expect(code).toBe(0);
    expect(err).toContain("SIGTERM, stopped watching");
  });
});
