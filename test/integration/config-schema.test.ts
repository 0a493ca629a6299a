import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv } from "ajv";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ConfigError, parseConfig } from "../../generator/cli/config.js";
import { configJsonSchema, initialConfig } from "../../generator/cli/config-schema.js";
import { main } from "../../generator/cli/main.js";
import { ROOT, SPEC_TEXT } from "../helpers.js";

/** Every folder a test makes is under this one, removed at the end. */
const work = mkdtempSync(join(tmpdir(), "crc-config-schema-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * The config's JSON Schema (issue 7, part 4; D12): shipped as `collab-rest-codegen/config.schema.json`, built from
 * the table the CLI validates by, and agreeing with it on good and bad configs; `init` writes a config both accept.
 */
const SHIPPED = join(ROOT, "templates/config.schema.json");
const validate = new Ajv({ allErrors: true, strict: false }).compile(configJsonSchema());

const CONFIGS: Array<[string, boolean]> = [
  ["out: gen\n", true],
  ["spec: api.md\nversion: 1.2.0\nfailOnWarnings: true\nv3ErrorPrefix: platform\n", true],
  ["ignore:\n  - code: missing-scope\n    method: event.unbind\n", true],
  ["skeleton: src/handlers.ts\n", true],
  ["packages:\n  types:\n    name: \"@acme/platform-types\"\n  client:\n    name: acme-client\n", true],
  ["packages:\n  types:\n    name: Acme Types\n", false],
  ["packages:\n  docs:\n    name: acme-docs\n", false],
  ["packages:\n  types:\n    version: 1.0.0\n", false],
  ["outt: x\n", false],
  ["out: 3\n", false],
  ["version: banana\n", false],
  ["failOnWarnings: yes please\n", false],
  ["v3ErrorPrefix: bitrix\n", false],
  ["skeleton: src/handlers.js\n", false],
  ["ignore:\n  - code: missing-scope\n", false],
  ["ignore:\n  - code: missing-scope\n    colour: red\n    line: 3\n", false],
];

describe("the config's JSON Schema", () => {
  it("the shipped file is the schema the CLI's table gives, and the package exports it", () => {
    expect(JSON.parse(readFileSync(SHIPPED, "utf8"))).toEqual(configJsonSchema());
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { exports: Record<string, string>; files: string[] };
    expect(pkg.exports["./config.schema.json"]).toBe("./templates/config.schema.json");
    expect(pkg.files).toContain("templates");
  });

  it.each(CONFIGS)("%j: the schema and the CLI agree", (text, ok) => {
    let cli = true;
    try {
      parseConfig(text, "codegen.config.yaml");
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      cli = false;
    }
    expect({ schema: validate(parse(text)), cli }).toEqual({ schema: ok, cli: ok });
  });
});

describe("init", () => {
  it("writes a commented config that both accept, with the repository's one spec, prints the npm scripts, and never overwrites", async () => {
    const dir = mkdtempSync(join(work, "init-"));
    mkdirSync(join(dir, "api"));
    writeFileSync(join(dir, "api/platform.md"), SPEC_TEXT);
    writeFileSync(join(dir, "README.md"), "# A team's repository\n");
    const out: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((s: string) => (out.push(String(s)), true)) as typeof process.stdout.write;
    let code: number;
    try {
      code = await main(["init", dir]);
    } finally {
      process.stdout.write = write;
    }
    expect(code).toBe(0);
    const text = readFileSync(join(dir, "codegen.config.yaml"), "utf8");
    // Before issue 25, init wrote the generator's own spec path, and the first generate failed.
    expect(text).toBe(initialConfig({ spec: "api/platform.md", out: "output", schema: "./node_modules/collab-rest-codegen/templates/config.schema.json" }));
    expect(text).toMatch(/^# yaml-language-server: \$schema=\.\/node_modules\/collab-rest-codegen\/templates\/config\.schema\.json$/m);
    expect(validate(parse(text))).toBe(true);
    expect(parseConfig(text, "codegen.config.yaml")).toMatchObject({ spec: "api/platform.md", out: "output", v3ErrorPrefix: "spec" });
    expect(out.join("")).toContain('"generate:check": "collab-rest-codegen generate --check"');
    writeFileSync(join(dir, "codegen.config.yaml"), "out: mine\n");
    expect(await main(["init", dir])).toBe(3);
    expect(readFileSync(join(dir, "codegen.config.yaml"), "utf8")).toBe("out: mine\n");
    expect(existsSync(join(dir, "missing"))).toBe(false);
    expect(await main(["init", join(dir, "missing")])).toBe(3);
  });

  it("--spec and --out name the paths; with no spec or two, init asks for --spec and writes nothing", async () => {
    const errors: string[] = [];
    const writeErr = process.stderr.write.bind(process.stderr);
    const writeOut = process.stdout.write.bind(process.stdout);
    process.stderr.write = ((s: string) => (errors.push(String(s)), true)) as typeof process.stderr.write;
    process.stdout.write = (() => true) as typeof process.stdout.write;
    try {
      const none = mkdtempSync(join(work, "init-none-"));
      expect(await main(["init", none])).toBe(3);
      expect(errors.join("")).toMatch(/found no Markdown spec in .*; name it with --spec FILE/);
      expect(existsSync(join(none, "codegen.config.yaml"))).toBe(false);
      const two = mkdtempSync(join(work, "init-two-"));
      writeFileSync(join(two, "a.md"), SPEC_TEXT);
      writeFileSync(join(two, "b.md"), SPEC_TEXT);
      expect(await main(["init", two])).toBe(3);
      expect(errors.join("")).toMatch(/found 2 Markdown specs .*a\.md, .*b\.md\); name one with --spec FILE/);
      expect(await main(["init", two, "--spec", join(two, "b.md"), "--out", join(two, "gen")])).toBe(0);
      expect(parseConfig(readFileSync(join(two, "codegen.config.yaml"), "utf8"), "c.yaml")).toMatchObject({ spec: "b.md", out: "gen" });
    } finally {
      process.stderr.write = writeErr;
      process.stdout.write = writeOut;
    }
  });
});

describe("config mistakes get their position and a near name (issue 25)", () => {
  it("a spec path that does not exist: the config's file:line:column and 'did you mean'", () => {
    const dir = mkdtempSync(join(work, "config-"));
    mkdirSync(join(dir, "api"));
    writeFileSync(join(dir, "api/platform.md"), SPEC_TEXT);
    writeFileSync(join(dir, "codegen.config.yaml"), "# ours\nout: gen\nspec: api/platfrom.md\n");
    const r = spawnSync(process.execPath, [join(ROOT, "dist/generator/cli/main.js"), "generate"], { cwd: dir, encoding: "utf8" });
    expect(r.status).toBe(3);
    expect(r.stderr).toContain("codegen.config.yaml:3:7: spec file not found: api/platfrom.md; did you mean 'api/platform.md'?");
  });

  it("an unknown key: 'did you mean' the key it is near", () => {
    expect(() => parseConfig("spce: a.md\n", "c.yaml")).toThrow("c.yaml:1:1: unknown key 'spce'; did you mean 'spec'?");
    expect(() => parseConfig("failOnWarning: true\n", "c.yaml")).toThrow("did you mean 'failOnWarnings'?");
    expect(() => parseConfig("colour: red\n", "c.yaml")).toThrow(/unknown key 'colour' Expected one of/);
  });
});
