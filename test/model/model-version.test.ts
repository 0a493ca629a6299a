import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readPrevious } from "../../generator/diff/version.js";
import { MODEL_VERSION } from "../../generator/model/types.js";
import { ROOT } from "../helpers.js";
import { filesBelow } from "../helpers.js";

/** Every folder a test makes is under this one, removed at the end. */
const work = mkdtempSync(join(tmpdir(), "crc-model-version-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * Decisions.md D28: `model.json` carries a `modelVersion`, and a `model.json` written before a shape change is still
 * read (migrated) by `--previous` and the version base, so that an unchanged spec across the upgrade is `bump: none`
 * and the packages keep their version and bytes. The fixtures are the shipped spec's `model.json` as committed before
 * version 2 (no `modelVersion`, no `platform`) and before version 3 (no `effect` on the States rows, no `answers` or
 * `links` among the platform facts).
 */

/**
 * What the reader learned of the same spec after a fixture was committed: facts of the content, not of the shape, added
 * here so that only the shape differs. Each is named; none is taken from today's output wholesale.
 * - The triggers of event.bind's code-only URL errors (read/triggers.ts, after the fields' forms).
 */
function withFactsReadSince(text: string): string {
  const model = JSON.parse(text) as { methods: Array<{ name: string; version: string; errors: Array<{ code: string | null; text: string | null; trigger?: unknown }> }> };
  const since: Record<string, unknown> = {
    ERROR_WRONG_HANDLER_URL: { parameter: "handler", failure: "type", words: "ERROR_WRONG_HANDLER_URL" },
    ERROR_UNSUPPORTED_PROTOCOL: { parameter: "handler", failure: "value", words: "ERROR_UNSUPPORTED_PROTOCOL" },
  };
  for (const m of model.methods) {
    if (m.name !== "event.bind" || m.version !== "legacy") continue;
    for (const e of m.errors) if (e.code !== null && since[e.code] && e.text === null && !e.trigger) e.trigger = since[e.code];
  }
  return `${JSON.stringify(model, null, 2)}\n`;
}

const V1 = readFileSync(join(ROOT, "test/fixtures/model-json/v1.json"), "utf8");
const V2 = readFileSync(join(ROOT, "test/fixtures/model-json/v2.json"), "utf8");
const BIN = join(ROOT, "dist/generator/cli/main.js");

describe("model.json shapes (D28)", () => {
  it("a version 1 model.json is read in today's shape", () => {
    const raw = JSON.parse(V1) as { modelVersion?: number; platform?: unknown };
    expect(raw.modelVersion).toBeUndefined();
    expect(raw.platform).toBeUndefined();
    const previous = readPrevious(V1);
    expect(previous?.generation.version).toBe("0.3.4");
    expect(previous?.model.modelVersion).toBe(MODEL_VERSION);
    expect(previous?.model.platform.paging.pageSize).toEqual({ value: 50, source: null });
    expect(previous?.model.platform.links).toEqual({ value: [], source: null });
  });

  it("a version 2 model.json is read in today's shape: its States rows unread, no answers or links", () => {
    const raw = JSON.parse(V2) as { modelVersion: number; platform: { answers?: unknown }; states: { transitions: Array<{ effect?: unknown }> } };
    expect(raw.modelVersion).toBe(2);
    expect(raw.platform.answers).toBeUndefined();
    expect(raw.states.transitions.every((t) => t.effect === undefined)).toBe(true);
    const previous = readPrevious(V2);
    expect(previous?.model.modelVersion).toBe(MODEL_VERSION);
    expect(previous?.model.platform.answers.notAdministrator).toEqual({ value: null, source: null });
    expect(previous?.model.platform.codes.retry.value).toContain("QUERY_LIMIT_EXCEEDED");
    expect(previous?.model.states.transitions.map((t) => t.effect.kind)).toEqual(raw.states.transitions.map(() => "unread"));
  });

  it.each([
    ["1", V1, "0.3.4"],
    ["2", V2, "0.3.15"],
  ])("an output folder of version %s regenerated: bump none, the same version, every file byte for byte", (_v, text, was) => {
    const dir = mkdtempSync(join(work, "model-version-"));
    cpSync(join(ROOT, "spec-source"), join(dir, "spec-source"), { recursive: true });
    cpSync(join(ROOT, "codegen.config.yaml"), join(dir, "codegen.config.yaml"));
    cpSync(join(ROOT, "output"), join(dir, "output"), { recursive: true });
    // The folder as a generator of that model version would leave it today: its model.json (of today's version, so that
    // only the shape differs) and a manifest with that file's hash. A frozen manifest would also date every other
    // file, and a later change of the runtimes' bytes, a patch of its own, would read as the shape's doing.
    const version = (JSON.parse(readFileSync(join(ROOT, "output/model.json"), "utf8")) as { generation: { version: string } }).generation.version;
    const v1 = withFactsReadSince(text).replace(`"version": "${was}"`, `"version": "${version}"`);
    writeFileSync(join(dir, "output/model.json"), v1);
    const manifest = JSON.parse(readFileSync(join(ROOT, "output/manifest.json"), "utf8")) as { files: Record<string, string> };
    manifest.files["model.json"] = createHash("sha256").update(v1).digest("hex");
    writeFileSync(join(dir, "output/manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    const r = spawnSync(process.execPath, [BIN, "generate"], { cwd: dir, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    // A bump would say "version X (… from …)"; an unchanged version says nothing of it.
    expect(r.stderr).not.toMatch(/\bversion \d/);
    const written = JSON.parse(readFileSync(join(dir, "output/model.json"), "utf8")) as { modelVersion: number; generation: { version: string } };
    expect(written.modelVersion).toBe(MODEL_VERSION);
    expect(written.generation.version).toBe(version);
    // The regenerated folder is today's output/, byte for byte: the new shape of model.json bumped nothing.
    const changed = filesBelow(join(ROOT, "output")).filter((p) => readFileSync(join(ROOT, "output", p), "utf8") !== readFileSync(join(dir, "output", p), "utf8"));
    expect(changed).toEqual([]);
  });

});
