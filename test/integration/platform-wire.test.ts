import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers.js";
import { wireDivergences } from "../real-docs/divergences.js";
import { PLATFORM_WIRE } from "../real-docs/platform-wire.js";

/** Every citation of the platform's documentation that the runtimes follow still says what it is cited for. */
const DOCS = join(ROOT, "spec-source/platform-docs");

describe("the platform documentation the server follows where the spec is silent", () => {
  it.each(PLATFORM_WIRE.map((f) => [`${f.file}:${f.line}`, f] as const))("%s", (_where, f) => {
    const path = join(DOCS, f.file);
    expect(existsSync(path), path).toBe(true);
    const line = readFileSync(path, "utf8").split("\n")[f.line - 1] ?? "";
    expect(line).toContain(f.says);
  });
});

describe("the differences between the spec and the platform's documentation, as recorded", () => {
  const spec = readFileSync(join(ROOT, "spec-source/collaboration-platform-api.md"), "utf8").split("\n");
  it.each(wireDivergences.map((d) => [d.subject, d] as const))("%s", (_subject, d) => {
    expect(spec[d.spec.line - 1] ?? "").toContain(d.spec.says);
    expect(readFileSync(join(DOCS, d.platform.file), "utf8").split("\n")[d.platform.line - 1] ?? "").toContain(d.platform.says);
  });
});
