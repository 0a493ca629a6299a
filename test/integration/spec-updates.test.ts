import { execFileSync, spawn, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { diffLines } from "diff";
import { afterAll, describe, expect, it } from "vitest";
import type { Previous } from "../../generator/diff/version.js";
import { skeletonDrift } from "../../generator/skeleton/index.js";
import { mergeSkeleton } from "../../generator/skeleton/merge.js";
import type { GeneratedFile } from "../../generator/emit/files.js";
import { generate } from "../../generator/generate.js";
import { GEN, ROOT, SPEC_PATH, SPEC_TEXT, modelOf } from "../helpers.js";

/**
 * The spec-update loop (issue 7): versions bumped by the diff of the models, changelogs, the `diff` command on a
 * real git history, and the user's skeleton following the spec by insertions only.
 */

const work = mkdtempSync(join(tmpdir(), "crc-updates-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const BIN = join(ROOT, "dist/generator/cli/main.js");
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");

function once(s: string, find: string | RegExp, replace: string): string {
  const out = s.replace(find, replace);
  if (out === s) throw new Error(`edit did not apply: ${String(find)}`);
  return out;
}

const ADD_PIN = (s: string) => once(s, "**tasks.task.getaccess**.", "**tasks.task.pin**. Scope `task`. Any user. Pins a task. `id`* integer. Result: boolean.\n\n**tasks.task.getaccess**.");
const ADD_LINE_GET = (s: string) => once(s, "**telephony.externalLine.add**.", "**telephony.externalLine.get**. Scope `telephony`. Any user. `NUMBER`* string. Result: boolean.\n\n**telephony.externalLine.add**.");
const WORDING = (s: string) => once(s, "Shows the call card to a user or users.", "Shows the call card to one or more users.");
const DROP_SHOW = (s: string) => once(s, /\*\*telephony\.externalCall\.show\*\*[^\n]*\n\n/, "");

type Files = Map<string, GeneratedFile>;

async function gen(spec: string, previous: Files | null, extra: Partial<Parameters<typeof generate>[1]> = {}): Promise<Files> {
  const opts = { ...GEN, specPath: SPEC_PATH, ...extra, ...(previous ? { previous: previousOf(previous) } : {}) };
  const r = await generate(spec, opts);
  expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return new Map(r.files.map((f) => [f.path, f]));
}

/** What the CLI reads of the previous generation from an output folder. */
function previousOf(files: Files): Previous {
  const text = (p: string) => files.get(p)?.contents ?? "";
  return {
    modelJson: text("model.json"),
    changelogs: { types: text("types/CHANGELOG.md"), client: text("client/CHANGELOG.md"), server: text("server/CHANGELOG.md") },
    fileHashes: (JSON.parse(text("manifest.json")) as { files: Record<string, string> }).files,
  };
}

const versionOf = (files: Files) => (JSON.parse(files.get("types/package.json")?.contents ?? "{}") as { version: string }).version;
const sections = (files: Files, pkg: string) => [...(files.get(`${pkg}/CHANGELOG.md`)?.contents ?? "").matchAll(/^## \[([^\]]+)\]/gm)].map((m) => m[1]);

describe("versions and changelogs", async () => {
  const first = await gen(SPEC_TEXT, null);

  it("the first generation takes the config's version (default 0.1.0) in every package, document and dependency", () => {
    expect(versionOf(first)).toBe("0.1.0");
    for (const pkg of ["client", "server"]) {
      const json = JSON.parse(first.get(`${pkg}/package.json`)?.contents ?? "{}") as { version: string; dependencies: Record<string, string> };
      expect(json.version).toBe("0.1.0");
      expect(json.dependencies["collab-platform-api-types"]).toBe("0.1.0");
    }
    expect((JSON.parse(first.get("openapi/openapi.v3.json")?.contents ?? "{}") as { info: { version: string } }).info.version).toBe("0.1.0");
    expect(sections(first, "types")).toEqual(["0.1.0"]);
    expect(first.get("types/CHANGELOG.md")?.contents).toContain("First generated version.");
  });

  it("an added method is a minor version with an Added section naming it and its spec line; a rerun is byte-identical", async () => {
    const spec = ADD_PIN(SPEC_TEXT);
    const next = await gen(spec, first);
    expect(versionOf(next)).toBe("0.2.0");
    const log = next.get("client/CHANGELOG.md")?.contents ?? "";
    expect(sections(next, "client")).toEqual(["0.2.0", "0.1.0"]);
    const line = spec.split("\n").findIndex((l) => l.startsWith("**tasks.task.pin**")) + 1;
    expect(log).toContain(`### Added\n\n- \`tasks.task.pin\` is new (\`method-added\`, spec line ${line})`);
    expect(log).toContain("Version bump from 0.1.0: minor.");
    const again = await gen(spec, next);
    expect([...again.values()].map((f) => [f.path, f.contents])).toEqual([...next.values()].map((f) => [f.path, f.contents]));
  });

  it("while the major is 0 a breaking change is a minor version (D22); `breakingWhileZero: major` chooses otherwise", async () => {
    const breaking = DROP_SHOW(SPEC_TEXT);
    // Before issue 25 this was 1.0.0, which npm's `^0.1.0` does not take either, but semver's 0.x rule reads
    // 0.2.0 as the breaking release.
    expect(versionOf(await gen(breaking, first))).toBe("0.2.0");
    expect(versionOf(await gen(breaking, first, { breakingWhileZero: "major" }))).toBe("1.0.0");
    // From 1.0.0 on, a breaking change is a major version whatever the key says.
    const v100 = await gen(breaking, first, { breakingWhileZero: "major" });
    expect(versionOf(await gen(ADD_LINE_GET(DROP_SHOW(WORDING(SPEC_TEXT))).replace("**tasks.task.unpin**.", "**tasks.task.unpinned**."), v100))).toBe("2.0.0");
  });

  it("wording is a patch; a removed described method is a major version, its handler kept as an optional @deprecated member until the next major", async () => {
    const major = { breakingWhileZero: "major" as const };
    const v020 = await gen(ADD_PIN(SPEC_TEXT), first, major);
    const v021 = await gen(WORDING(ADD_PIN(SPEC_TEXT)), v020, major);
    expect(versionOf(v021)).toBe("0.2.1");
    expect(v021.get("types/CHANGELOG.md")?.contents).toContain("### Changed\n\n- the description of `telephony.externalCall.show` changed (`description-changed`");
    const v100 = await gen(DROP_SHOW(WORDING(ADD_PIN(SPEC_TEXT))), v021, major);
    expect(versionOf(v100)).toBe("1.0.0");
    expect(v100.get("server/CHANGELOG.md")?.contents).toContain("### Removed\n\n- `telephony.externalCall.show` is no longer in the spec (`method-removed`, was at line");
    expect(v100.get("client/CHANGELOG.md")?.contents).toContain("- **Breaking:** `telephony.externalCall.show` is no longer in the spec");
    const member = '  "telephony.externalCall.show"?: Handler<{ params: any; result: unknown }>;';
    expect(v100.get("server/index.d.ts")?.contents).toContain(`/** @deprecated The spec no longer has \`telephony.externalCall.show\` (removed in 1.0.0); the router ignores this handler. Delete it. */\n${member}`);
    // A minor change keeps it; the next major drops it.
    const v110 = await gen(ADD_LINE_GET(DROP_SHOW(WORDING(ADD_PIN(SPEC_TEXT)))), v100, major);
    expect(versionOf(v110)).toBe("1.1.0");
    expect(v110.get("server/index.d.ts")?.contents).toContain(member);
    const v200 = await gen(ADD_LINE_GET(DROP_SHOW(WORDING(SPEC_TEXT))), v110, major);
    expect(versionOf(v200)).toBe("2.0.0");
    expect(v200.get("server/index.d.ts")?.contents).not.toContain(member);
    expect(v200.get("server/index.d.ts")?.contents).toContain('  "tasks.task.pin"?: Handler<{ params: any; result: unknown }>;');
    expect(sections(v200, "server")).toEqual(["2.0.0", "1.1.0", "1.0.0", "0.2.1", "0.2.0", "0.1.0"]);
  });

  it("the same model with other bytes (a template upgrade) is a patch that says why; the config's version is a floor", async () => {
    const templates = { ...GEN.templates, "types/README.md.hbs": "<!-- {{header}} -->\n# {{name}}, regenerated\n" };
    const patched = await gen(SPEC_TEXT, first, { templates, customTemplates: [] });
    expect(versionOf(patched)).toBe("0.1.1");
    expect(patched.get("types/CHANGELOG.md")?.contents).toContain("- Regenerated by collab-rest-codegen 0.0.0; the spec's model did not change.");
    expect(versionOf(await gen(SPEC_TEXT, patched, { templates, customTemplates: [] }))).toBe("0.1.1");
    expect(versionOf(await gen(ADD_PIN(SPEC_TEXT), first, { version: "2.0.0" }))).toBe("2.1.0");
    expect(versionOf(await gen(SPEC_TEXT, first, { version: "2.0.0" }))).toBe("2.0.0");
  });

  it("a model.json that is not one of ours (or none) makes a first generation", async () => {
    const broken = new Map(first);
    broken.set("model.json", { path: "model.json", contents: "{}\n" });
    expect(versionOf(await gen(ADD_PIN(SPEC_TEXT), broken))).toBe("0.1.0");
  });
});

function git(dir: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", ...args], { cwd: dir, encoding: "utf8" });
}

function cli(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: "utf8", env: { ...process.env, GITHUB_WORKSPACE: "" } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("diff on a git history", () => {
  const dir = join(work, "repo");
  mkdirSync(join(dir, "spec-source"), { recursive: true });
  cpSync(join(ROOT, "codegen.config.yaml"), join(dir, "codegen.config.yaml"));
  writeFileSync(join(dir, SPEC_PATH), SPEC_TEXT);
  git(dir, "init", "-q");
  git(dir, "add", ".");
  git(dir, "commit", "-qm", "spec");
  writeFileSync(join(dir, SPEC_PATH), DROP_SHOW(SPEC_TEXT));
  git(dir, "commit", "-qam", "drop a method");
  const oldLine = SPEC_TEXT.split("\n").findIndex((l) => l.startsWith("**telephony.externalCall.show**")) + 1;

  it("--from git:HEAD~1 reports the removal in all four formats; --fail-on breaking exits 1", () => {
    const text = cli(["diff", "--from", "git:HEAD~1"], dir);
    expect(text.code).toBe(0);
    expect(text.stdout).toBe(
      `HEAD~1:${SPEC_PATH}:${oldLine}:3: breaking method-removed: \`telephony.externalCall.show\` is no longer in the spec [client breaking, server minor]\nbump: major (1 breaking, 0 minor, 0 patch)\n`,
    );
    const json = JSON.parse(cli(["diff", "--from", "git:HEAD~1", "--format", "json"], dir).stdout) as unknown;
    expect(json).toEqual({
      bump: "major",
      changes: [
        {
          code: "method-removed",
          severity: "breaking",
          audiences: { client: "breaking", server: "minor" },
          method: "telephony.externalCall.show",
          version: "legacy",
          resource: null,
          message: "`telephony.externalCall.show` is no longer in the spec",
          from: { file: `HEAD~1:${SPEC_PATH}`, line: oldLine, column: 3 },
          to: null,
        },
      ],
    });
    const md = cli(["diff", "--from", "git:HEAD~1", "--format", "markdown"], dir).stdout;
    expect(md).toContain(`| breaking | \`method-removed\` | \`telephony.externalCall.show\` is no longer in the spec | breaking | minor | \`HEAD~1:${SPEC_PATH}:${oldLine}:3\` |  |`);
    const telephony = DROP_SHOW(SPEC_TEXT).split("\n").findIndex((l) => l === "### Telephony") + 1;
    expect(cli(["diff", "--from", "git:HEAD~1", "--format", "github"], dir).stdout).toBe(
      `::error file=${SPEC_PATH},line=${telephony},col=1,title=method-removed (breaking)::\`telephony.externalCall.show\` is no longer in the spec [client breaking, server minor]\n::notice::bump: major (1 breaking, 0 minor, 0 patch)\n`,
    );
    expect(cli(["diff", "--from", "git:HEAD~1", "--fail-on", "breaking"], dir).code).toBe(1);
  });

  it("an added method passes --fail-on breaking and fails --fail-on minor", () => {
    writeFileSync(join(dir, SPEC_PATH), ADD_PIN(DROP_SHOW(SPEC_TEXT)));
    git(dir, "commit", "-qam", "add a method");
    expect(cli(["diff", "--from", "git:HEAD~1", "--fail-on", "breaking"], dir).code).toBe(0);
    const minor = cli(["diff", "--from", "git:HEAD~1", "--fail-on", "minor"], dir);
    expect(minor.code).toBe(1);
    expect(minor.stdout).toContain("minor method-added: `tasks.task.pin` is new");
    expect(cli(["diff", "--from", "git:HEAD", "--fail-on", "patch"], dir)).toMatchObject({ code: 0, stdout: "bump: none (0 breaking, 0 minor, 0 patch)\n" });
  });

  it("usage errors: a revision without the file, a folder outside git, a missing file; a spec with errors exits 2", () => {
    const missing = cli(["diff", "--from", "git:no-such-rev"], dir);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain(`--from git:no-such-rev: git cannot show ${SPEC_PATH} at no-such-rev`);
    const outside = join(work, "no-git");
    mkdirSync(join(outside, "spec-source"), { recursive: true });
    writeFileSync(join(outside, SPEC_PATH), SPEC_TEXT);
    const r = cli(["diff", "--from", "git:HEAD", "--spec", SPEC_PATH], outside);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("is not inside a git work tree");
    expect(cli(["diff", "--from", "nowhere.md"], dir)).toMatchObject({ code: 3, stderr: expect.stringContaining("old spec not found: nowhere.md") });
    writeFileSync(join(outside, "broken.md"), "no title here\n");
    const broken = cli(["diff", "--from", "broken.md", "--spec", SPEC_PATH], outside);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/broken\.md:1:1: error missing-title/);
  });
});

/** A user's skeleton as people write them: their own imports, helpers, bodies, comments, 4-space indent, single quotes, satisfies. */
function userSkeleton(fresh: string): string {
  const entries = (name: string) => {
    const body = new RegExp(`export const ${name}: \\w+ = \\{\\n([\\s\\S]*?)\\n\\};`).exec(fresh)?.[1] ?? "";
    return body
      .replace(/^ {2}/gm, "    ")
      .replace(/"([\w.]+)": async/g, "'$1': async")
      .replace("'telephony.externalCall.show': async (_params, _context) => notImplemented(\"telephony.externalCall.show\"),", "'telephony.externalCall.show': async (params) => {\n        // shows the card through our PBX\n        return pbx.show(params.CALL_ID) as never;\n    }, // keep: used by the PBX team");
  };
  return [
    "// Our handlers. Owned by the platform team.",
    'import { type LegacyHandlers, MethodError, type V3Handlers } from "collab-platform-api-server";',
    "",
    "const pbx = { show: (id: string): unknown => ({ id }) };",
    "",
    "function notImplemented(method: string): never {",
    '    throw new MethodError({ code: "ERROR_METHOD_NOT_FOUND", status: 404, description: `${method} is not implemented yet` });',
    "}",
    "",
    "export const legacy = {",
    entries("legacy"),
    "} satisfies LegacyHandlers;",
    "",
    "export const v3: V3Handlers = {",
    entries("v3"),
    "};",
    "",
    "export function helper(): number { return 42 }",
    "",
  ].join("\n");
}

describe("the skeleton follows the spec", () => {
  it("two added methods and one removed: the user's bytes stay, only the stubs and a @deprecated line are inserted; a rerun changes nothing", async () => {
    const fresh = (await gen(SPEC_TEXT, null)).get("server/skeleton/handlers.ts")?.contents ?? "";
    const user = userSkeleton(fresh);
    const spec = ADD_LINE_GET(ADD_PIN(DROP_SHOW(SPEC_TEXT)));
    const newFresh = (await gen(spec, null)).get("server/skeleton/handlers.ts")?.contents ?? "";
    const note = "The spec no longer has `telephony.externalCall.show`; the router ignores this handler.";
    const merged = mergeSkeleton(user, newFresh, { add: { legacy: ["tasks.task.pin", "telephony.externalLine.get"], v3: [] }, deprecate: { legacy: [{ name: "telephony.externalCall.show", note }], v3: [] } });
    if (merged.kind !== "merged") throw new Error(JSON.stringify(merged));
    expect(merged.added).toEqual(["tasks.task.pin", "telephony.externalLine.get"]);
    expect(merged.deprecated).toEqual(["telephony.externalCall.show"]);
    const parts = diffLines(user, merged.text);
    expect(parts.filter((p) => p.removed)).toEqual([]);
    expect(parts.filter((p) => p.added).map((p) => p.value)).toEqual([
      "    /** tasks.task.pin: Pins a task */\n    'tasks.task.pin': async (_params, _context) => notImplemented(\"tasks.task.pin\"),\n".replace(/'/g, '"'),
      `    /** @deprecated ${note} */\n`,
      '    /** telephony.externalLine.get: Result: boolean */\n    "telephony.externalLine.get": async (_params, _context) => notImplemented("telephony.externalLine.get"),\n',
    ]);
    // In spec order: after the method before it in the spec.
    expect(merged.text.indexOf('"tasks.task.pin"')).toBeGreaterThan(merged.text.indexOf("'tasks.task.get':"));
    expect(merged.text.indexOf('"tasks.task.pin"')).toBeLessThan(merged.text.indexOf("'tasks.task.getaccess'"));
    const rerun = mergeSkeleton(merged.text, newFresh, { add: { legacy: ["tasks.task.pin", "telephony.externalLine.get"], v3: [] }, deprecate: { legacy: [{ name: "telephony.externalCall.show", note }], v3: [] } });
    expect(rerun).toEqual({ kind: "unchanged" });
  });

  it("a file that does not parse, or has no handlers object, is not touched and the reason has its position", () => {
    const update = { add: { legacy: ["tasks.task.pin"], v3: [] }, deprecate: { legacy: [], v3: [] } };
    expect(mergeSkeleton("export const legacy = {\n  a: 1,\n  b: (\n};\n", "export const legacy = {};\n", update)).toMatchObject({ kind: "failed", line: 4, column: 1, reason: expect.stringContaining("it does not parse") });
    expect(mergeSkeleton("// nothing here\nexport const other = {};\n", "export const legacy = {};\n", update)).toEqual({ kind: "failed", line: 1, column: 1, reason: "it has no `export const legacy` handlers object" });
    expect(mergeSkeleton("\nexport const legacy = makeHandlers();\n", "export const legacy = {};\n", update)).toEqual({ kind: "failed", line: 2, column: 14, reason: "`legacy` is not an object literal of handlers" });
  });

  it("end to end: generate merges the user's file after a spec update, --check is clean after it, and the packed packages compile it", () => {
    const dir = join(work, "project");
    mkdirSync(join(dir, "spec-source"), { recursive: true });
    cpSync(join(ROOT, "codegen.config.yaml"), join(dir, "codegen.config.yaml"));
    writeFileSync(join(dir, SPEC_PATH), SPEC_TEXT);
    expect(cli(["generate"], dir).code).toBe(0);
    const path = join(dir, "output/server/skeleton/handlers.ts");
    const user = userSkeleton(readFileSync(path, "utf8"));
    writeFileSync(path, user);
    writeFileSync(join(dir, SPEC_PATH), ADD_LINE_GET(ADD_PIN(DROP_SHOW(SPEC_TEXT))));
    const check = cli(["generate", "--check"], dir);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain("stale: server/skeleton/handlers.ts (no handlers for tasks.task.pin, telephony.externalLine.get; generate adds them)");
    expect(readFileSync(path, "utf8")).toBe(user);
    const r = cli(["generate"], dir);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("collab-rest-codegen: version 0.2.0 (from 0.1.0); bump: major (1 breaking, 2 minor, 0 patch)");
    expect(r.stderr).toContain("output/server/skeleton/handlers.ts: added handler stubs: tasks.task.pin, telephony.externalLine.get");
    expect(r.stderr).toContain("output/server/skeleton/handlers.ts: marked @deprecated (no longer in the spec): telephony.externalCall.show");
    const merged = readFileSync(path, "utf8");
    expect(diffLines(user, merged).filter((p) => p.removed)).toEqual([]);
    expect(merged).toContain("/** @deprecated The spec no longer has `telephony.externalCall.show` (it was at line");
    expect(cli(["generate", "--check"], dir).code).toBe(0);
    // The packed packages compile the merged file: the removed handler is an accepted deprecated member.
    const consumer = join(dir, "consumer");
    mkdirSync(join(consumer, "packs"), { recursive: true });
    execFileSync("npm", ["pack", join(dir, "output/types"), join(dir, "output/server"), "--pack-destination", "packs"], { cwd: consumer, stdio: "pipe" });
    writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", version: "1.0.0", private: true, type: "module" }));
    execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", ...readdirSync(join(consumer, "packs")).map((f) => `./packs/${f}`)], { cwd: consumer, stdio: "pipe" });
    cpSync(path, join(consumer, "handlers.ts"));
    const tsconfig = { compilerOptions: { strict: true, noEmit: true, module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", lib: ["ES2023", "DOM"], types: [] }, files: ["handlers.ts"] };
    writeFileSync(join(consumer, "tsconfig.json"), JSON.stringify(tsconfig));
    const tsc = spawnSync(process.execPath, [TSC, "-p", "tsconfig.json"], { cwd: consumer, encoding: "utf8" });
    expect(tsc.stdout).toBe("");
    expect(tsc.status).toBe(0);
    // Without the stubs it would not compile: the check can fail.
    writeFileSync(join(consumer, "handlers.ts"), user);
    const stale = spawnSync(process.execPath, [TSC, "-p", "tsconfig.json"], { cwd: consumer, encoding: "utf8" });
    expect(stale.stdout).toMatch(/handlers\.ts\(\d+,\d+\): error TS\d+: .*tasks\.task\.pin/);
  }, 120_000);

  it("an unparseable skeleton: a positioned warning, the file untouched, the rest written, exit 0", () => {
    const dir = join(work, "broken-skeleton");
    mkdirSync(join(dir, "spec-source"), { recursive: true });
    cpSync(join(ROOT, "codegen.config.yaml"), join(dir, "codegen.config.yaml"));
    writeFileSync(join(dir, SPEC_PATH), SPEC_TEXT);
    expect(cli(["generate"], dir).code).toBe(0);
    const path = join(dir, "output/server/skeleton/handlers.ts");
    const broken = readFileSync(path, "utf8").replace('"tasks.task.get": async (_params, _context) =>', '"tasks.task.get": async (_params, _context) => {{');
    writeFileSync(path, broken);
    writeFileSync(join(dir, SPEC_PATH), ADD_PIN(SPEC_TEXT));
    const r = cli(["generate"], dir);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/output\/server\/skeleton\/handlers\.ts:\d+:\d+: warning skeleton-not-updated: it does not parse: .*; the skeleton was left as it was and lacks handlers for tasks\.task\.pin/);
    expect(readFileSync(path, "utf8")).toBe(broken);
    expect(JSON.parse(readFileSync(join(dir, "output/types/package.json"), "utf8")).version).toBe("0.2.0");
  });
});

describe("the skeleton merge keeps what the user wrote (review findings)", () => {
  const fresh = 'export const legacy = {\n  /** a */\n  "a.x": async () => 1,\n  /** b */\n  "b.x": async () => 2,\n};\n';
  const add = (...names: string[]) => ({ add: { legacy: names, v3: [] }, deprecate: { legacy: [], v3: [] } });

  it("the drift check looks at each handlers object: a 3.0 handler missing beside a legacy one of the same name is missing", async () => {
    const skeleton = (await gen(SPEC_TEXT, null)).get("server/skeleton/handlers.ts")?.contents ?? "";
    const v3At = skeleton.indexOf("export const v3");
    const withoutV3Get = skeleton.slice(0, v3At) + skeleton.slice(v3At).replace(/\n[^\n]*\n\s*"tasks\.task\.get": async[^\n]*/, "");
    expect(withoutV3Get).not.toBe(skeleton);
    const model = modelOf(SPEC_TEXT);
    expect(skeletonDrift(model, skeleton)).toEqual({ added: [], removed: [] });
    expect(skeletonDrift(model, withoutV3Get)).toEqual({ added: ["tasks.task.get"], removed: [] });
  });

  it("an object with a spread or a computed key is not merged: a stub could shadow a handler written elsewhere", () => {
    expect(mergeSkeleton('const mine = { "b.x": async () => 2 };\nexport const legacy = {\n  ...mine,\n};\n', fresh, add("a.x", "b.x"))).toMatchObject({ kind: "failed", line: 3, column: 3, reason: "`legacy` has a spread or a computed key, so the methods it handles cannot be told" });
    expect(mergeSkeleton('export const legacy = {\n  ["a.x"]: async () => 1,\n};\n', fresh, add("b.x"))).toMatchObject({ kind: "failed", line: 2 });
  });

  it("a trailing comment stays on its entry's line, with or without the entry's comma, and CRLF files stay CRLF", () => {
    const noComma = mergeSkeleton('export const legacy = {\n  "a.x": async () => 10 // keep me\n};\n', fresh, add("a.x", "b.x"));
    expect(noComma).toMatchObject({ kind: "merged", text: 'export const legacy = {\n  "a.x": async () => 10, // keep me\n  /** b */\n  "b.x": async () => 2,\n};\n' });
    const atStart = mergeSkeleton('export const legacy = { // my handlers\n  "b.x": async () => 20,\n};\n', fresh, add("a.x", "b.x"));
    expect(atStart).toMatchObject({ kind: "merged", text: 'export const legacy = { // my handlers\n  /** a */\n  "a.x": async () => 1,\n  "b.x": async () => 20,\n};\n' });
    const crlf = mergeSkeleton('export const legacy = {\r\n  "a.x": async () => 10, // keep\r\n};\r\n', fresh, add("a.x", "b.x"));
    expect(crlf).toMatchObject({ kind: "merged", text: 'export const legacy = {\r\n  "a.x": async () => 10, // keep\r\n  /** b */\r\n  "b.x": async () => 2,\r\n};\r\n' });
  });
});

describe("a release per change, not per run (issue 25, D22)", () => {
  const project = (name: string) => {
    const dir = join(work, name);
    mkdirSync(join(dir, "spec-source"), { recursive: true });
    cpSync(join(ROOT, "codegen.config.yaml"), join(dir, "codegen.config.yaml"));
    writeFileSync(join(dir, SPEC_PATH), SPEC_TEXT);
    return dir;
  };
  const version = (dir: string) => (JSON.parse(readFileSync(join(dir, "output/types/package.json"), "utf8")) as { version: string }).version;
  const releases = (dir: string) => [...readFileSync(join(dir, "output/types/CHANGELOG.md"), "utf8").matchAll(/^## \[?([^\]\s]+)/gm)].map((m) => m[1]);

  it("with the output tracked by git, three runs of one change are one release, and the committed spec gives the committed bytes", () => {
    const dir = project("d22-git");
    git(dir, "init", "-q");
    expect(cli(["generate"], dir).code).toBe(0);
    git(dir, "add", ".");
    git(dir, "commit", "-qm", "first");
    writeFileSync(join(dir, SPEC_PATH), ADD_PIN(SPEC_TEXT));
    // Before issue 25 each run was a release: 0.2.0, 0.2.1, 0.2.2, and three changelog sections.
    for (let run = 0; run < 3; run++) {
      expect(cli(["generate"], dir).code).toBe(0);
      expect(version(dir)).toBe("0.2.0");
      expect(releases(dir)).toEqual(["0.2.0", "0.1.0"]);
    }
    writeFileSync(join(dir, SPEC_PATH), SPEC_TEXT);
    expect(cli(["generate"], dir).code).toBe(0);
    // Every generated file as committed; the skeleton is the user's own, and keeps the stub the merge gave it.
    expect(git(dir, "status", "--porcelain", "output", ":!output/server/skeleton")).toBe("");
    expect(cli(["generate", "--check"], dir).code).toBe(0);
  }, 120_000);

  it("--watch: the saves of one session are versioned against the output as the session began", async () => {
    const dir = project("d22-watch");
    expect(cli(["generate"], dir).code).toBe(0);
    const child = spawn(process.execPath, [BIN, "generate", "--watch"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += String(d)));
    const wrote = async (n: number) => {
      const end = Date.now() + 60_000;
      while ((err.match(/: wrote \d+ files|files up to date|: version /g) ?? []).length < n && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    };
    try {
      await wrote(1);
      writeFileSync(join(dir, SPEC_PATH), ADD_PIN(SPEC_TEXT));
      await wrote(3);
      writeFileSync(join(dir, SPEC_PATH), WORDING(ADD_PIN(SPEC_TEXT)));
      await wrote(5);
    } finally {
      const closed = new Promise((r) => child.on("exit", r));
      child.kill("SIGTERM");
      await closed;
    }
    expect(version(dir)).toBe("0.2.0");
    expect(releases(dir)).toEqual(["0.2.0", "0.1.0"]);
  }, 120_000);
});
