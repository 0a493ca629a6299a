import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compareModels } from "../../generator/diff/index.js";
import { buildFromSource, buildFromText } from "../../generator/generate.js";
import { ROOT, referenceFolder } from "../helpers.js";

/**
 * `compare` (issue 29 item 2, decisions.md D15): the spec against the platform's reference with diff's engine in
 * divergence mode, over the shipped spec and the repository's copy of the reference, and the CLI over small fixtures.
 */

const SPEC = "spec-source/collaboration-platform-api.md";
const DOCS = "spec-source/platform-docs";

const spec = buildFromText(readFileSync(join(ROOT, SPEC), "utf8"), SPEC).model;
const reference = buildFromSource(referenceFolder(join(ROOT, DOCS), DOCS)).model;
if (!spec || !reference) throw new Error("no model");
const report = compareModels(spec, reference, { from: SPEC, to: DOCS });
const of = (name: string, version: "legacy" | "v3" = "legacy") => report.changes.filter((c) => c.method === name && c.version === version);

describe("compare: the shipped spec against the repository's reference", () => {
  it("compares every method both describe, and names the spec's methods the reference lacks", () => {
    expect(report.methods.both).toBeGreaterThanOrEqual(28);
    expect(report.methods.both + report.methods.specOnly).toBe(spec.methods.filter((m) => m.described).length);
    expect(report.methods.referenceOnly).toBeGreaterThan(1400);
    for (const c of report.changes.filter((x) => x.code === "method-removed")) expect(c.to).toBeNull();
  });

  it("finds what a survey of the pages found", () => {
    // The 3.0 tasks.task.get takes `id` on its page where the spec says `taskId`.
    const v3get = of("tasks.task.get", "v3");
    expect(v3get.some((c) => c.code === "param-removed" && c.message.includes("`taskId`"))).toBe(true);
    expect(v3get.some((c) => c.code.startsWith("param-added") && c.message.includes("`id`"))).toBe(true);
    // event.bind stars `handler`, which the spec requires only for online events.
    expect(of("event.bind").some((c) => c.message.includes("`handler`") && /required/.test(c.code))).toBe(true);
    // sale.paysystem.settings.update types `ID` as `sale_paysystem.ID` on its page.
    expect(of("sale.paysystem.settings.update").some((c) => c.message.includes("`ID`"))).toBe(true);
    // Many of the spec's unknown types are typed on the pages.
    expect(report.changes.filter((c) => c.code === "param-type-narrowed" || c.code === "result-type-narrowed").length).toBeGreaterThan(5);
    // Scopes the spec names that the reference's list of scopes lacks, at the list.
    const unlisted = report.changes.filter((c) => c.code === "scope-changed" && c.message.includes("list of scopes"));
    expect(unlisted.map((c) => [c.method, c.message.match(/scope `([^`]+)`/)?.[1], c.to?.file])).toEqual([
      ["sonet_group.update", "sonet", `${DOCS}/api-reference/scopes/permissions.md`],
      ["event.bind", "base", `${DOCS}/api-reference/scopes/permissions.md`],
      ["event.offline.clear", "base", `${DOCS}/api-reference/scopes/permissions.md`],
    ]);
    // Without a list, nothing of the kind.
    const unlistedWithout = compareModels(spec, { ...reference, scopeList: undefined } as typeof reference, { from: SPEC, to: DOCS }).changes.filter((c) => c.message.includes("list of scopes"));
    expect(unlistedWithout).toEqual([]);
  });

  it("every divergence holds both positions, each in its own input's file", () => {
    for (const c of report.changes) {
      if (c.from) expect(c.from.file).toBe(SPEC);
      if (c.to) expect(c.to.file).toMatch(/^spec-source\/platform-docs\/api-reference\/.+\.md$/);
    }
    expect(report.changes.filter((c) => c.from && c.to).length).toBeGreaterThan(20);
  });

  it("says each divergence once, and a changed type names what changed", () => {
    const lines = report.changes.map((c) => JSON.stringify([c.code, c.message, c.from, c.to]));
    expect(new Set(lines).size).toBe(lines.length);
    // event.bind's four texts of ERROR_ARGUMENT in the spec, none on the page: one line, not four.
    expect(of("event.bind").filter((c) => c.code === "error-removed" && c.message.includes("ERROR_ARGUMENT"))).toHaveLength(1);
    // "is now integer (was integer)" said nothing: the bounds are the difference.
    for (const c of report.changes) expect(c.message).not.toMatch(/is now (.+) \(was \1\)$/);
    expect(of("sign.b2e.personal.tail").some((c) => c.message.includes("is now integer (was integer from 1 to 1000)"))).toBe(true);
  });
});

describe("collab-rest-codegen compare (CLI)", () => {
  const dir = mkdtempSync(join(tmpdir(), "crc-compare-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const cli = (...args: string[]) => spawnSync(process.execPath, [join(ROOT, "dist/generator/cli/main.js"), ...args], { cwd: dir, encoding: "utf8" });

  it("reports in every format, exits 1 under --fail-on, and a spec that agrees gives no divergence", () => {
    cpSync(join(ROOT, "test/fixtures/reference-mini"), join(dir, "docs"), { recursive: true });
    // A spec of one method the reference describes, with a parameter the page does not have.
    writeFileSync(
      join(dir, "spec.md"),
      ["# Shop", "", "## Endpoints", "", "### Shop", "", "**shop.order.delete**. Scope `shop`. Deletes an order.", "", "- `id`* integer, the order", "- `force` boolean, delete even when paid", ""].join("\n"),
    );
    const text = cli("compare", "--spec", "spec.md", "--with", "docs");
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toContain("spec.md:");
    expect(text.stdout).toContain("docs/api-reference/shop/orders/shop-order-delete.md:");
    expect(text.stdout).toMatch(/param-removed: .*`force`/);
    expect(text.stdout).toMatch(/over 1 method\(s\) both describe \(0 the spec's alone, 6 the reference's alone\)/);
    const json = JSON.parse(cli("compare", "--spec", "spec.md", "--with", "docs", "--format", "json").stdout) as { methods: unknown; changes: Array<{ code: string }>; bump?: unknown };
    expect(json.bump).toBeUndefined();
    expect(json.methods).toEqual({ both: 1, specOnly: 0, referenceOnly: 6 });
    expect(json.changes.map((c) => c.code)).toContain("param-removed");
    expect(cli("compare", "--spec", "spec.md", "--with", "docs", "--format", "markdown").stdout).toContain("| Severity | Code | Divergence | Spec | Reference |");
    expect(cli("compare", "--spec", "spec.md", "--with", "docs", "--format", "github").stdout).toMatch(/^::error file=spec\.md,line=\d+/m);
    expect(cli("compare", "--spec", "spec.md", "--with", "docs", "--fail-on", "breaking").status).toBe(1);
    expect(cli("compare", "--spec", "spec.md", "--with", "nowhere").stderr).toContain("reference folder not found: nowhere");
  });

  it("takes a folder only with api-reference/ in it, checked before a page is read; skips hidden folders and node_modules", () => {
    // A parent of two copies (a temporary folder, a checkout of several snapshots): refused at once, the copies named.
    for (const copy of ["snap-a", "snap-b"]) cpSync(join(dir, "docs"), join(dir, "parent", copy), { recursive: true });
    // A page the reader would refuse (not UTF-8) at the parent's top: it is never read.
    writeFileSync(join(dir, "parent/broken.md"), Buffer.from([0xff, 0xfe, 0x00]));
    const parent = cli("compare", "--spec", "spec.md", "--with", "parent");
    expect(parent.status).toBe(3);
    expect(parent.stderr).toContain("parent is a folder, but not one laid out like the platform's reference: expected Markdown pages under parent/api-reference/");
    expect(parent.stderr).toContain("2 folders in it are: parent/snap-a, parent/snap-b");
    for (const [args, message] of [
      [["--with", ""], "--with: the path is empty"],
      [["--with", "spec.md"], "reference folder is a file, not a folder: spec.md"],
    ] as const) {
      const r = cli("compare", "--spec", "spec.md", ...args);
      expect(r.status).toBe(3);
      expect(r.stderr).toContain(message);
    }
    const empty = cli("generate", "--spec", "spec.md", "--docs", "", "--out", "out");
    expect(empty.status).toBe(3);
    expect(empty.stderr).toContain("--docs: the path is empty");
    // What is not the reference's is not read: the same bytes under .git/ and node_modules/ stop nothing.
    for (const hidden of [".git", "node_modules/pkg"]) {
      mkdirSync(join(dir, "docs", hidden), { recursive: true });
      writeFileSync(join(dir, "docs", hidden, "broken.md"), Buffer.from([0xff, 0xfe, 0x00]));
    }
    expect(cli("compare", "--spec", "spec.md", "--with", "docs").status).toBe(0);
    writeFileSync(join(dir, "docs/broken.md"), Buffer.from([0xff, 0xfe, 0x00]));
    const broken = cli("compare", "--spec", "spec.md", "--with", "docs");
    expect(broken.status).toBe(3);
    expect(broken.stderr).toContain("broken.md: cannot read: the file is not valid UTF-8");
    rmSync(join(dir, "docs/broken.md"));
  });
});
