import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import v8 from "node:v8";
import { afterAll, describe, expect, it } from "vitest";
import { diffModels } from "../../generator/diff/index.js";
import { buildFromSource } from "../../generator/generate.js";
import type { Method, Model } from "../../generator/model/types.js";
import type { InputSource } from "../../generator/source/index.js";
import { ROOT, referenceFolder } from "../helpers.js";
import { cacheRecord, loadCache, readCacheRecords, saveCache } from "../../generator/cli/cache.js";

/**
 * Reference updates are spec updates (issue 28, item 6): a new snapshot of the reference is read like a new version
 * of the spec. The repository's copy with one area removed (`vote`) and one small area added (the fixtures' `shop`)
 * reads the areas the two share exactly as before, and `diff` says what was removed and added, nothing else.
 */

const DOCS = "spec-source/platform-docs";

const before = referenceFolder(join(ROOT, DOCS), DOCS).files;
const shop = referenceFolder(join(ROOT, "test/fixtures/reference-mini/api-reference/shop"), `${DOCS}/api-reference/shop`).files;
const after = [...before.filter((f) => !f.path.startsWith(`${DOCS}/api-reference/vote/`)), ...shop];
const modelOf = (f: InputSource["files"]): Model => {
  const built = buildFromSource({ kind: "reference", root: DOCS, files: f });
  if (!built.model) throw new Error("no model");
  return built.model;
};
const a = modelOf(before);
const b = modelOf(after);
const byKey = (m: Model) => new Map(m.methods.filter((x) => x.described).map((x) => [`${x.version}:${x.name}`, x] as [string, Method]));

describe("a new snapshot of the reference", () => {
  it("reads every method of the areas the two share exactly as before", () => {
    const was = byKey(a);
    const now = byKey(b);
    const shared = [...was.values()].filter((m) => m.area !== "vote");
    expect(shared.length).toBeGreaterThan(1400);
    // The known events of `event.bind` are the folder's: the added area's event joins them, and nothing else differs.
    const withoutEvents = (m: Method | undefined) => JSON.parse(JSON.stringify(m ?? null, (k, v) => (k === "enum" && Array.isArray(v) && v.includes("onCrmDealAdd") ? undefined : v))) as unknown;
    for (const m of shared) expect(withoutEvents(now.get(`${m.version}:${m.name}`)), m.name).toEqual(withoutEvents(m));
    const bind = now.get("legacy:event.bind")?.params.find((p) => p.name === "event")?.type;
    expect(bind?.kind === "primitive" && bind.openEnum && bind.enum?.includes("onShopOrderAdd")).toBe(true);
    expect([...now.values()].filter((m) => m.area === "vote")).toEqual([]);
    expect([...now.values()].filter((m) => m.area === "shop").map((m) => m.name).sort()).toEqual(["shop.item.files", "shop.item.history", "shop.item.list", "shop.item.owners", "shop.order.delete", "shop.order.fetch", "shop.order.get"]);
  });

  it("diff reports the removed area's methods and the added area's, and nothing else of a method", () => {
    const report = diffModels(a, b, { from: "before", to: "after" });
    const methodChanges = report.changes.filter((c) => c.code.startsWith("method-") || c.code.startsWith("param"));
    const removed = methodChanges.filter((c) => c.code === "method-removed").length;
    const added = methodChanges.filter((c) => c.code === "method-added").length;
    expect(removed).toBe([...byKey(a).values()].filter((m) => m.area === "vote").length);
    expect(added).toBe(7);
    expect(methodChanges.filter((c) => c.code !== "method-removed" && c.code !== "method-added")).toEqual([]);
    // The events too: the added area's event is new, the removed area's are gone, no other event changed.
    const events = report.changes.filter((c) => c.code.startsWith("event-"));
    expect(events.filter((c) => c.code === "event-added").map((c) => c.message)).toEqual(["event `onShopOrderAdd` (`ONSHOPORDERADD`) is new"]);
    expect(events.filter((c) => c.code === "event-removed").length).toBe((a.eventPayloads ?? []).filter((e) => e.source.file.includes("/api-reference/vote/")).length);
    expect(events.filter((c) => c.code !== "event-added" && c.code !== "event-removed")).toEqual([]);
  });

  it("an event page's table edited: what its handler receives is a change of the server's audience, at the row", () => {
    const mini = referenceFolder(join(ROOT, "test/fixtures/reference-mini"), "docs");
    const page = "docs/api-reference/shop/events/on-shop-order-add.md";
    const edit = (f: (text: string) => string) => ({ ...mini, files: mini.files.map((x) => (x.path === page ? { ...x, text: f(x.text) } : x)) });
    const retyped = edit((t) => t.replace("|| **ID**\n[`integer`]", "|| **ID**\n[`string`]").replace("|#\n\n### Parameter auth", "|| **TITLE**\n[`string`](../../data-types.md) | The order's title ||\n|#\n\n### Parameter auth"));
    const m0 = buildFromSource(mini).model as Model;
    const m1 = buildFromSource(retyped).model as Model;
    const changes = diffModels(m0, m1, { from: "before", to: "after" }).changes.filter((c) => c.code.startsWith("event-"));
    expect(changes.map((c) => [c.code, c.message, c.to?.line])).toEqual([
      ["event-payload-changed", "the member `data.FIELDS.ID` of what a handler of event `onShopOrderAdd` (`ONSHOPORDERADD`) receives is now string (was integer)", 33],
      ["event-payload-member-added", "what a handler of event `onShopOrderAdd` (`ONSHOPORDERADD`) receives has a new member `data.FIELDS.TITLE`", 35],
    ]);
    expect(diffModels(m1, m0, { from: "after", to: "before" }).changes.filter((c) => c.code.startsWith("event-")).map((c) => c.code)).toEqual(["event-payload-changed", "event-payload-changed"]);
  });
});

describe("diff --from over two folders (CLI)", () => {
  const dir = mkdtempSync(join(tmpdir(), "crc-ref-diff-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it("reads both folders whole and reports a parameter removed from a page", () => {
    cpSync(join(ROOT, "test/fixtures/reference-mini"), join(dir, "old"), { recursive: true });
    cpSync(join(ROOT, "test/fixtures/reference-mini"), join(dir, "new"), { recursive: true });
    const page = join(dir, "new/api-reference/shop/orders/shop-order-get.md");
    writeFileSync(page, readFileSync(page, "utf8").replace("|| **select**\n[`string[]`](../../data-types.md) | Fields to return ||\n", ""));
    const r = spawnSync(process.execPath, [join(ROOT, "dist/generator/cli/main.js"), "diff", "--from", "old", "--spec", "new", "--format", "json"], { cwd: dir, encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout) as { changes: Array<{ code: string; message: string }> };
    expect(report.changes.map((c) => c.code)).toEqual(["param-removed"]);
    expect(report.changes[0]?.message).toContain("select");
  });

  it("reads the old folder at a git revision (git:REV), one git process for all its pages", () => {
    const repo = join(dir, "repo");
    cpSync(join(ROOT, "test/fixtures/reference-mini"), join(repo, "docs"), { recursive: true });
    // Pages in a hidden folder and under node_modules, committed: the working folder's reading skips them, and so must
    // the reading at the revision, else the diff would report their methods as removed.
    const fetchPage = readFileSync(join(repo, "docs/api-reference/shop/orders/shop-order-fetch.md"), "utf8");
    for (const [folder, name] of [[".drafts", "shop.order.draft"], ["node_modules/pkg", "shop.order.vendored"]] as const) {
      mkdirSync(join(repo, "docs/api-reference/shop", folder), { recursive: true });
      writeFileSync(join(repo, "docs/api-reference/shop", folder, `${name.replace(/\./g, "-")}.md`), fetchPage.replaceAll("shop.order.fetch", name));
    }
    const git = (...args: string[]) => spawnSync("git", args, { cwd: repo, encoding: "utf8" });
    git("init", "-q");
    git("add", "-f", ".");
    expect(git("ls-files").stdout).toContain("shop/node_modules/pkg/shop-order-vendored.md");
    expect(git("ls-files").stdout).toContain("shop/.drafts/shop-order-draft.md");
    git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "-m", "reference");
    const page = join(repo, "docs/api-reference/shop/orders/shop-order-fetch.md");
    writeFileSync(page, readFileSync(page, "utf8").replace("[`integer`](../../data-types.md) | Identifier ||", "[`string`](../../data-types.md) | Identifier ||"));
    const r = spawnSync(process.execPath, [join(ROOT, "dist/generator/cli/main.js"), "diff", "--from", "git:HEAD", "--spec", "docs", "--format", "json"], { cwd: repo, encoding: "utf8" });
    expect(r.stderr).toBe("");
    const report = JSON.parse(r.stdout) as { changes: Array<{ code: string; message: string }> };
    expect(report.changes.map((c) => c.code)).toEqual(["param-type-changed"]);
  });
});

describe("generate over a changed folder (CLI)", () => {
  const dir = mkdtempSync(join(tmpdir(), "crc-ref-gen-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const cli = (...args: string[]) => spawnSync(process.execPath, [join(ROOT, "dist/generator/cli/main.js"), ...args], { cwd: dir, encoding: "utf8" });

  it("bumps the version, writes the changelogs, and --check and a second run agree with the bytes", () => {
    cpSync(join(ROOT, "test/fixtures/reference-mini"), join(dir, "docs"), { recursive: true });
    expect(cli("generate", "--spec", "docs", "--out", "out").status).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "out/types/package.json"), "utf8")).version).toBe("0.1.0");
    expect(cli("generate", "--spec", "docs", "--out", "out", "--check").status).toBe(0);
    // A parameter removed from a page: a breaking change of the types, as for the spec (minor while 0.x).
    const page = join(dir, "docs/api-reference/shop/orders/shop-order-get.md");
    writeFileSync(page, readFileSync(page, "utf8").replace("|| **select**\n[`string[]`](../../data-types.md) | Fields to return ||\n", ""));
    const stale = cli("generate", "--spec", "docs", "--out", "out", "--check");
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain("stale: model.json");
    const second = cli("generate", "--spec", "docs", "--out", "out");
    expect(second.status, second.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "out/types/package.json"), "utf8")).version).toBe("0.2.0");
    const changelog = readFileSync(join(dir, "out/types/CHANGELOG.md"), "utf8");
    expect(changelog).toContain("0.2.0");
    expect(changelog).toContain("select");
    // A removal names the page it was on, below the folder, not "the previous spec" (a folder has no one line).
    expect(changelog).toMatch(/no longer has parameter `select`.*was at line \d+ of api-reference\/shop\/orders\/shop-order-get\.md in the previous version/);
    // The same input again: the same bytes, nothing written.
    expect(cli("generate", "--spec", "docs", "--out", "out", "--check").status).toBe(0);
  });
});

describe("the cache files' log (cli/cache.ts)", () => {
  const dir = mkdtempSync(join(tmpdir(), "crc-cache-log-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("appends while at most half the entries are stale, then writes anew; never appends through a link", () => {
    const folder = join(dir, "cache");
    const run = (keys: string[]) => {
      const cache = loadCache(folder, "t.v8");
      if (!cache) throw new Error("no cache");
      for (const k of keys) cache.next.set(k, cache.entries.get(k) ?? `text of ${k}`);
      expect(saveCache(folder, cache, "t.v8")).toBeNull();
      return readCacheRecords(readFileSync(join(folder, "t.v8"))).records.map((r) => [...(r.entries?.keys() ?? [])]);
    };
    expect(run(["a", "b", "c", "d"])).toEqual([["a", "b", "c", "d"]]);
    // One new, one stale of five: appended.
    expect(run(["a", "b", "c", "e"])).toEqual([["a", "b", "c", "d"], ["e"]]);
    // Nothing new, nothing stale: not written at all (the same inode and size).
    const before = statSync(join(folder, "t.v8"));
    expect(run(["a", "b", "c", "d", "e"])).toEqual([["a", "b", "c", "d"], ["e"]]);
    expect([statSync(join(folder, "t.v8")).ino, statSync(join(folder, "t.v8")).size]).toEqual([before.ino, before.size]);
    // Four stale of five, one live: written anew with the live entries only.
    expect(run(["e", "f"])).toEqual([["e", "f"]]);
    // An entry read anew under a key the file has (a page whose include changed): appended, and the later one wins.
    const again = loadCache(folder, "t.v8");
    if (!again) throw new Error("no cache");
    again.next.set("e", again.entries.get("e"));
    again.next.set("f", "f read anew");
    expect(saveCache(folder, again, "t.v8")).toBeNull();
    expect(readCacheRecords(readFileSync(join(folder, "t.v8"))).records.map((r) => [...(r.entries?.keys() ?? [])])).toEqual([["e", "f"], ["f"]]);
    expect(loadCache(folder, "t.v8")?.entries.get("f")).toBe("f read anew");
    // A link in the file's place is replaced, never appended through: its target stays as it was.
    const target = join(dir, "elsewhere.v8");
    writeFileSync(target, readFileSync(join(folder, "t.v8")));
    const kept = readFileSync(target);
    rmSync(join(folder, "t.v8"));
    symlinkSync(target, join(folder, "t.v8"));
    // Nor read through: the link's entries are not used, and the save writes a file of its own in the link's place.
    expect(loadCache(folder, "t.v8")?.entries.size).toBe(0);
    expect(run(["e", "f", "g"])).toEqual([["e", "f", "g"]]);
    expect(readFileSync(target)).toEqual(kept);
  });
});

describe("the fragment cache (the config's cache folder)", () => {
  const dir = mkdtempSync(join(tmpdir(), "crc-ref-cache-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const cli = (...args: string[]) => spawnSync(process.execPath, [join(ROOT, "dist/generator/cli/main.js"), ...args], { cwd: dir, encoding: "utf8" });

  it("keeps the pages' readings, and the output is the same bytes with and without it, before and after a page changes", () => {
    cpSync(join(ROOT, "test/fixtures/reference-mini"), join(dir, "docs"), { recursive: true });
    writeFileSync(join(dir, "codegen.config.yaml"), "spec: docs\nout: out\ncache: .cache\n");
    expect(cli("generate").status).toBe(0);
    const records = (f: string) => readCacheRecords(readFileSync(join(dir, ".cache", f))).records;
    const [stored, ...more] = records("reference-pages.v8");
    expect(more).toEqual([]);
    // Every page but the type catalogue's: the shop's three method pages, its overview, the includes.
    const readings = [...(stored?.entries?.values() ?? [])] as Array<{ method: { name: string } | null }>;
    expect(readings.flatMap((e) => (e.method ? [e.method.name] : [])).sort()).toEqual(["shop.item.files", "shop.item.history", "shop.item.list", "shop.item.owners", "shop.order.delete", "shop.order.fetch", "shop.order.get"]);
    // The emit stage's printed texts beside them (emit/memo.ts): texts only, found again by the next run.
    const [printed] = records("printed.v8");
    expect(printed?.salt).toBe(stored?.salt);
    expect(printed?.entries?.size).toBeGreaterThan(20);
    // Each a text, kept as its UTF-8 bytes (the record's body, after its length and hash).
    const raw = v8.deserialize(readFileSync(join(dir, ".cache/printed.v8")).subarray(36)) as { entries: Map<string, unknown> };
    expect([...raw.entries.values()].every((t) => t instanceof Uint8Array && t.length > 0)).toBe(true);
    const texts = [...(printed?.entries?.values() ?? [])] as string[];
    // An interface's member (the method map's), and a path item of the YAML twin.
    expect(texts.some((t) => t.includes('"shop.order.get": MethodSpec<'))).toBe(true);
    expect(texts.some((t) => /^ {2}\/shop\.order\.get:\n/.test(t))).toBe(true);
    // Nothing changed: every entry is used and none added, so neither file is written again.
    const files = () => ["printed.v8", "reference-pages.v8"].map((f) => statSync(join(dir, ".cache", f))).map((x) => [x.ino, x.size, x.mtimeMs]);
    const before = files();
    expect(cli("generate").status).toBe(0);
    expect(files()).toEqual(before);
    // A page changes: the run with the cache and a run without it write the same bytes.
    const page = join(dir, "docs/api-reference/shop/orders/shop-order-fetch.md");
    writeFileSync(page, readFileSync(page, "utf8").replace("| Identifier ||", "| Identifier of the order ||"));
    expect(cli("generate").status).toBe(0);
    // The page's new reading is appended as a record of its own, on the same file; the old one stays while the
    // file holds no more stale entries than live ones.
    const pages = records("reference-pages.v8");
    expect(pages).toHaveLength(2);
    expect(pages[1]?.entries?.size).toBe(1);
    expect(statSync(join(dir, ".cache/reference-pages.v8")).ino).toBe(before[1]?.[0]);
    rmSync(join(dir, ".cache"), { recursive: true });
    const check = cli("generate", "--check");
    expect(check.stderr).toContain("files up to date");
    expect(check.status).toBe(0);
    // An entry whose included file changed is read again: the include's new text reaches the model.
    const include = join(dir, "docs/_includes/more-errors.md");
    writeFileSync(include, "#|\n|| **Code** | **Description** ||\n|| `ERROR_ONE` | The first ||\n|#\n");
    writeFileSync(page, `${readFileSync(page, "utf8")}\n{% include [more](../../../_includes/more-errors.md) %}\n`);
    expect(cli("generate").status).toBe(0);
    expect(readFileSync(join(dir, "out/model.json"), "utf8")).toContain("ERROR_ONE");
    writeFileSync(include, "#|\n|| **Code** | **Description** ||\n|| `ERROR_TWO` | The second ||\n|#\n");
    expect(cli("generate").status).toBe(0);
    const model = readFileSync(join(dir, "out/model.json"), "utf8");
    expect(model).toContain("ERROR_TWO");
    expect(model).not.toContain("ERROR_ONE");
    rmSync(join(dir, ".cache"), { recursive: true });
    expect(cli("generate", "--check").status).toBe(0);
  });

  it("an include that was missing and is there now is read: the cached reading is not used", () => {
    const page = join(dir, "docs/api-reference/shop/orders/shop-order-remove-extra.md");
    writeFileSync(page, readFileSync(join(dir, "docs/api-reference/shop/orders/shop-order-fetch.md"), "utf8").replace("shop.order.fetch", "shop.order.extra").replaceAll("shop.order.fetch", "shop.order.extra") + "\n{% include [late](../../../_includes/late-errors.md) %}\n");
    expect(cli("generate", "--format", "json").stdout).toContain("late-errors.md");
    writeFileSync(join(dir, "docs/_includes/late-errors.md"), "#|\n|| **Code** | **Description** ||\n|| `ERROR_LATE` | Late ||\n|#\n");
    const second = cli("generate", "--format", "json");
    expect(second.stdout).not.toContain("late-errors.md");
    expect(readFileSync(join(dir, "out/model.json"), "utf8")).toContain("ERROR_LATE");
    rmSync(join(dir, ".cache"), { recursive: true });
    expect(cli("generate", "--check").status).toBe(0);
  });

  it("a cache this generator cannot read, or another build's, is ignored, never an error", () => {
    const cacheFile = (f: string) => join(dir, ".cache", f);
    writeFileSync(cacheFile("reference-pages.v8"), "{ not v8");
    expect(cli("generate", "--check").status).toBe(0);
    writeFileSync(cacheFile("reference-pages.v8"), cacheRecord("another build", new Map([["x", { method: null, diagnostics: [], included: [] }]])));
    expect(cli("generate", "--check").status).toBe(0);
    // A printed text of another build is never used: its salt is not this build's.
    const [printed] = readCacheRecords(readFileSync(cacheFile("printed.v8"))).records;
    const keys = [...(printed?.entries?.keys() ?? [])];
    expect(keys.length).toBeGreaterThan(20);
    writeFileSync(cacheFile("printed.v8"), cacheRecord("another build", new Map(keys.map((k) => [k, "// not the generator's text\n"]))));
    expect(cli("generate", "--check").status).toBe(0);
    // This build's salt with entries that are no texts: none is used.
    writeFileSync(cacheFile("printed.v8"), cacheRecord(String(printed?.salt), new Map(keys.map((k) => [k, 42]))));
    expect(cli("generate", "--check").status).toBe(0);
    // A record whose bytes were altered after its hash was taken is not read, nor anything after it.
    const good = cacheRecord(String(printed?.salt), new Map(keys.map((k) => [k, "// not the generator's text\n"])));
    good.writeUInt8(good.readUInt8(good.length - 3) ^ 1, good.length - 3);
    writeFileSync(cacheFile("printed.v8"), good);
    expect(readCacheRecords(good).records).toEqual([]);
    expect(cli("generate", "--check").status).toBe(0);
    // A record cut short (a killed run): the whole ones before it are read, and the next save writes the file anew
    // rather than append behind the cut.
    rmSync(join(dir, ".cache"), { recursive: true });
    expect(cli("generate").status).toBe(0);
    const whole = readFileSync(cacheFile("printed.v8"));
    writeFileSync(cacheFile("printed.v8"), Buffer.concat([whole, whole.subarray(0, 50)]));
    expect(readCacheRecords(readFileSync(cacheFile("printed.v8"))).whole).toBe(whole.length);
    const page = join(dir, "docs/api-reference/shop/orders/shop-order-fetch.md");
    const original = readFileSync(page, "utf8");
    writeFileSync(page, original.replace("| Identifier of the order ||", "| The order's identifier ||"));
    expect(cli("generate").status).toBe(0);
    const after = readCacheRecords(readFileSync(cacheFile("printed.v8")));
    expect(after.records).toHaveLength(1);
    expect(after.whole).toBe(statSync(cacheFile("printed.v8")).size);
    writeFileSync(page, original);
    rmSync(join(dir, ".cache"), { recursive: true });
    expect(cli("generate").status).toBe(0);
    writeFileSync(cacheFile("printed.v8"), "{ not v8");
    expect(cli("generate", "--check").status).toBe(0);
    // A cache folder that cannot be made (a file is in its way) costs the run its cache, with a notice, not its result.
    writeFileSync(join(dir, "in-the-way"), "");
    writeFileSync(join(dir, "codegen.config.yaml"), "spec: docs\nout: out\ncache: in-the-way/cache\n");
    const blocked = cli("generate", "--check");
    expect(blocked.status).toBe(0);
    expect(blocked.stderr).toMatch(/notice: the cache was not kept in in-the-way\/cache: /);
    writeFileSync(join(dir, "codegen.config.yaml"), "spec: docs\nout: out\ncache: .cache\n");
  });

  it("records what a write left (written.json): a generated file edited after it is still kept, never replaced", () => {
    expect(cli("generate").status).toBe(0);
    const stored = JSON.parse(readFileSync(join(dir, ".cache/written.json"), "utf8")) as { outs: Record<string, { entries: Record<string, string[]> }> };
    // One output folder, by its real path; another config's output beside it would have its own.
    const [record, ...others] = Object.values(stored.outs);
    expect(others).toEqual([]);
    if (!record) throw new Error("no record");
    const manifest = JSON.parse(readFileSync(join(dir, "out/manifest.json"), "utf8")) as { files: Record<string, string> };
    // Every generated file and the manifest, each with the hash the manifest gives it.
    expect(Object.keys(record.entries).sort()).toEqual([...Object.keys(manifest.files), "manifest.json"].sort());
    for (const [path, hash] of Object.entries(manifest.files)) expect(record.entries[path]?.[4]).toBe(hash);
    // The same size and the same mtime: only the ctime tells, and the next run reads the file and keeps it.
    const file = join(dir, "out/types/README.md");
    const text = readFileSync(file, "utf8");
    const { atime, mtime } = statSync(file);
    writeFileSync(file, text.replace("types", "TYPES"));
    utimesSync(file, atime, mtime);
    const page = join(dir, "docs/api-reference/shop/orders/shop-order-fetch.md");
    const original = readFileSync(page, "utf8");
    writeFileSync(page, original.replace("| Identifier of the order ||", "| Identifier of the order to fetch ||"));
    const run = cli("generate");
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/out\/types\/README\.md: warning: was edited since the last run; kept/);
    expect(readFileSync(file, "utf8")).toBe(text.replace("types", "TYPES"));
    writeFileSync(page, original);
    rmSync(file);
    expect(cli("generate").status).toBe(0);
    expect(cli("generate", "--check").status).toBe(0);
  });
});
