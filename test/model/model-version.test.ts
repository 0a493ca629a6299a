import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readPrevious } from "../../generator/diff/version.js";
import { MODEL_VERSION } from "../../generator/model/types.js";
import { ROOT } from "../helpers.js";
import { filesBelow } from "../helpers.js";

/**
 * Decisions.md D28: `model.json` carries a `modelVersion`, and a `model.json` written before a shape change is still
 * read (migrated) by `--previous` and the version base, so that an unchanged spec across the upgrade is `bump: none`
 * and the packages keep their version and bytes. The fixture is the shipped spec's `model.json` as committed before
 * version 2 (no `modelVersion`, no `platform`).
 */

const V1 = readFileSync(join(ROOT, "test/fixtures/model-json/v1.json"), "utf8");
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
  });

  it("an output folder of version 1 regenerated: bump none, the same version, every file but model.json and the manifest unchanged", () => {
    const dir = mkdtempSync(join(tmpdir(), "crc-model-version-"));
    cpSync(join(ROOT, "spec-source"), join(dir, "spec-source"), { recursive: true });
    cpSync(join(ROOT, "codegen.config.yaml"), join(dir, "codegen.config.yaml"));
    cpSync(join(ROOT, "output"), join(dir, "output"), { recursive: true });
    // The folder as a generator of model version 1 would leave it today: its model.json (of today's version, so that
    // only the shape differs) and a manifest with that file's hash. A frozen manifest would also date every other
    // file, and a later change of the runtimes' bytes, a patch of its own, would read as the shape's doing.
    const version = (JSON.parse(readFileSync(join(ROOT, "output/model.json"), "utf8")) as { generation: { version: string } }).generation.version;
    const v1 = V1.replace('"version": "0.3.4"', `"version": "${version}"`);
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
