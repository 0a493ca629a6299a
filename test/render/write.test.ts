import { spawn } from "node:child_process";
import { type BigIntStats, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import fc from "fast-check";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { GeneratedFile } from "../../generator/emit/files.js";
import { type OwnershipManifest, planWrite, safeRelative } from "../../generator/render/plan.js";
import { WORK_DIR, checkOutput, planOutput, recoverOutput, writeOutput } from "../../generator/render/write.js";
import { generatedHashes, heldAfterWrite, loadWriteRecord, saveWriteRecord, vouches } from "../../generator/render/record.js";
import { sha256 } from "../../generator/util/hash.js";
import { ROOT } from "../helpers.js";

const work = mkdtempSync(join(tmpdir(), "crc-write-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const manifestOf = (files: Record<string, string>, userOwned: string[] = []): OwnershipManifest => ({
  files: Object.fromEntries(Object.entries(files).map(([p, c]) => [p, sha256(c)])),
  userOwned,
});

describe("planWrite: which files a run may touch (D1)", () => {
  const gen = (path: string, contents: string, userOwned = false): GeneratedFile => ({ path, contents, ...(userOwned ? { userOwned } : {}) });
  it.each([
    {
      name: "absent file: written",
      files: [gen("a.ts", "new")],
      previous: null,
      disk: {},
      want: { writes: ["a.ts"], removes: [], kept: [] },
    },
    {
      name: "same bytes: left alone",
      files: [gen("a.ts", "same")],
      previous: manifestOf({ "a.ts": "same" }),
      disk: { "a.ts": "same" },
      want: { writes: [], removes: [], kept: [] },
    },
    {
      name: "pristine previous output: replaced",
      files: [gen("a.ts", "new")],
      previous: manifestOf({ "a.ts": "old" }),
      disk: { "a.ts": "old" },
      want: { writes: ["a.ts"], removes: [], kept: [] },
    },
    {
      name: "edited since the last run: kept",
      files: [gen("a.ts", "new")],
      previous: manifestOf({ "a.ts": "old" }),
      disk: { "a.ts": "old, edited" },
      want: { writes: [], removes: [], kept: ["a.ts:edited"] },
    },
    {
      name: "a file at a generated path the manifest never listed: kept",
      files: [gen("a.ts", "new")],
      previous: manifestOf({}),
      disk: { "a.ts": "the user's" },
      want: { writes: [], removes: [], kept: ["a.ts:not-generated"] },
    },
    {
      name: "no longer generated, pristine: removed",
      files: [],
      previous: manifestOf({ "gone.ts": "old" }),
      disk: { "gone.ts": "old" },
      want: { writes: [], removes: ["gone.ts"], kept: [] },
    },
    {
      name: "no longer generated, edited: kept",
      files: [],
      previous: manifestOf({ "gone.ts": "old" }),
      disk: { "gone.ts": "old, edited" },
      want: { writes: [], removes: [], kept: ["gone.ts:edited-obsolete"] },
    },
    {
      name: "files the manifest does not list are never removed",
      files: [],
      previous: manifestOf({}),
      disk: { "mine.ts": "the user's", "src/main.ts": "the user's" },
      want: { writes: [], removes: [], kept: [] },
    },
    {
      name: "a seed is created when absent and never replaced",
      files: [gen("seed.ts", "fresh seed", true), gen("other.ts", "fresh seed", true)],
      previous: manifestOf({}, ["seed.ts"]),
      disk: { "seed.ts": "the user's handlers" },
      want: { writes: ["other.ts"], removes: [], kept: [] },
    },
  ])("$name", ({ files, previous, disk, want }) => {
    const d = disk as Record<string, string>;
    const plan = planWrite(files, previous, (p) => d[p]);
    expect(plan.writes.map((w) => w.path)).toEqual(want.writes);
    expect(plan.removes).toEqual(want.removes);
    expect(plan.kept.map((k) => `${k.path}:${k.why}`)).toEqual(want.kept);
  });

  it("force replaces edited generated files, never a foreign one, and never removes an unlisted one (issue 24)", () => {
    const plan = planWrite([gen("a.ts", "new"), gen("b.ts", "new")], manifestOf({ "a.ts": "old", "c.ts": "old" }), (p) =>
      ({ "a.ts": "edited", "b.ts": "foreign", "c.ts": "edited", "mine.ts": "x" })[p], { force: true });
    expect(plan.writes.map((w) => w.path)).toEqual(["a.ts"]);
    expect(plan.kept).toEqual([{ path: "b.ts", why: "not-generated" }]);
    expect(plan.removes).toEqual(["c.ts"]);
  });

  it("the manifest is written last, and a moved seed is reported, not removed", () => {
    const plan = planWrite([gen("manifest.json", "{}"), gen("z.ts", "z"), gen("src/h.ts", "seed", true)], manifestOf({}, ["server/skeleton/handlers.ts"]), (p) =>
      p === "server/skeleton/handlers.ts" ? "mine" : undefined);
    expect(plan.writes.map((w) => w.path).at(-1)).toBe("manifest.json");
    expect(plan.movedSeeds).toEqual([{ from: "server/skeleton/handlers.ts", to: "src/h.ts" }]);
    expect(plan.removes).toEqual([]);
  });

  it.each([
    ["a/b.ts", true],
    ["../x", false],
    ["/etc/passwd", false],
    ["a/../../x", false],
    ["C:/x", false],
    ["a//b", false],
  ])("a manifest path %j is one a run may remove: %j", (path, ok) => {
    expect(safeRelative(path)).toBe(ok);
  });
});

describe("the record of the last write (render/record.ts): files it vouches for are judged unread", () => {
  const gen = (path: string, contents: string, userOwned = false): GeneratedFile => ({ path, contents, ...(userOwned ? { userOwned } : {}) });
  const paths = ["a.ts", "b.ts", "c/d.ts", "manifest.json", "seed.ts"];
  const text = fc.constantFrom("one", "two", "three, edited");

  it("a plan by the hashes a record vouches for is the plan by reading every file, whatever the folder holds", () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom(...paths), text),
        fc.option(fc.dictionary(fc.constantFrom(...paths), text), { nil: null }),
        fc.dictionary(fc.constantFrom(...paths), text),
        fc.subarray(paths),
        fc.boolean(),
        (generated, previous, disk, recorded, force) => {
          const files = Object.entries(generated).map(([p, c]) => gen(p, c, p === "seed.ts"));
          const prev = previous ? manifestOf(previous) : null;
          const read = planWrite(files, prev, (p) => disk[p], { force });
          const known = {
            // The record vouches for some of the files on disk; those must not be read.
            disk: (p: string) => (recorded.includes(p) && p in disk ? sha256(disk[p] ?? "") : undefined),
            generated: new Map(files.filter((f) => !f.userOwned).map((f) => [f.path, sha256(f.contents)])),
          };
          const unread = planWrite(files, prev, (p) => {
            if (recorded.includes(p) && p in disk && known.generated.has(p) && p !== "seed.ts") throw new Error(`${p} was read`);
            return disk[p];
          }, { force, known });
          expect(unread).toEqual(read);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("vouches only for the status it recorded, and never for a file changed in the clock tick of the record", () => {
    const s = { size: 10n, mtimeNs: 1_000n, ctimeNs: 2_000n, ino: 7n };
    const entry = ["10", "1000", "2000", "7", "hash"];
    expect(vouches(entry, s, 3_000n)).toBe(true);
    for (const other of [{ size: 11n }, { mtimeNs: 1_001n }, { ctimeNs: 2_001n }, { ino: 8n }]) expect(vouches(entry, { ...s, ...other }, 3_000n)).toBe(false);
    // Racily clean (git's term): a ctime not older than the record's own write is read, not trusted.
    expect(vouches(entry, s, 2_000n)).toBe(false);
  });

  /** One write as the CLI does it with a cache folder: plan (statuses of what it reads), write (statuses after each rename), record. */
  async function recordedWrite(out: string, cache: string, files: GeneratedFile[], between: () => void = () => {}) {
    const record = loadWriteRecord(cache, out);
    const hashes = generatedHashes(files);
    const seen = new Map<string, BigIntStats>();
    const written = new Map<string, BigIntStats>();
    const plan = planOutput(out, files, { seen, ...(record ? { known: { disk: record.disk, generated: hashes } } : {}) });
    between();
    await writeOutput(out, plan, written);
    // A clock tick between the files' status and the stamp, as a real run's emit and write take.
    await new Promise((r) => setTimeout(r, 30));
    expect(saveWriteRecord(cache, out, join(out, WORK_DIR), heldAfterWrite(plan, hashes, record, seen, written))).toBeNull();
    return plan;
  }

  it("on disk: an edit of the same size, its mtime set back, is still seen; a record of another folder is not used", async () => {
    const dir = join(work, "record");
    const out = join(dir, "out");
    const cache = join(dir, "cache");
    const files = fileSet("r", 6);
    await recordedWrite(out, cache, files);
    const hashes = generatedHashes(files);
    expect(hashes.size).toBe(7);
    const known = loadWriteRecord(cache, out);
    const target = files[0];
    if (!known || !target) throw new Error("no record");
    // Every file written is vouched for, with the hash of its bytes.
    for (const [path, hash] of hashes) expect(known.disk(path)).toBe(hash);
    // Edited in place, same size, its times set back as they were: the ctime moved, so the record no longer vouches.
    const full = join(out, target.path);
    const { atime, mtime } = statSync(full);
    writeFileSync(full, target.contents.replace("// r 0", "// R 0"));
    utimesSync(full, atime, mtime);
    expect(known.disk(target.path)).toBeUndefined();
    const plan = await recordedWrite(out, cache, fileSet("s", 6));
    expect(plan.kept).toEqual([{ path: target.path, why: "edited" }]);
    expect(plan.writes.map((w) => w.path)).toHaveLength(6);
    // The same record for another output folder vouches for nothing.
    expect(loadWriteRecord(cache, join(dir, "elsewhere"))).toBeNull();
  });

  it("an edit made while a run writes is never recorded as the generated bytes: the next run keeps it", async () => {
    const dir = join(work, "record-race");
    const out = join(dir, "out");
    const cache = join(dir, "cache");
    const files = fileSet("a", 6);
    await recordedWrite(out, cache, files);
    await recordedWrite(out, cache, files);
    // Between this run's plan (which vouched for or read every file as unchanged) and its record, a program edits
    // one file and another is written by the run itself then edited: neither status is the one the run held.
    const unchanged = files[1];
    if (!unchanged) throw new Error("no file");
    const next = fileSet("a", 6).map((f) => (f.path === files[2]?.path ? { ...f, contents: `${f.contents}// new\n` } : f));
    await recordedWrite(out, cache, next, () => writeFileSync(join(out, unchanged.path), `${unchanged.contents}// the user's line\n`));
    // The next run with other bytes for every file keeps the edited one, with a warning, whether or not it was read.
    const plan = await recordedWrite(out, cache, fileSet("b", 6));
    expect(plan.kept).toEqual([{ path: unchanged.path, why: "edited" }]);
    expect(readFileSync(join(out, unchanged.path), "utf8")).toContain("// the user's line");
  });
});

/** Every file below a folder with its bytes, `WORK_DIR` and user files included. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, prefix: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name), `${prefix}${e.name}/`);
      else out[`${prefix}${e.name}`] = readFileSync(join(d, e.name), "utf8");
    }
  };
  if (existsSync(dir)) walk(dir, "");
  return out;
}

/** A generated set of `n` files under a few folders, with its manifest last (as `generate` emits it). */
function fileSet(tag: string, n: number, skip: (i: number) => boolean = () => false): GeneratedFile[] {
  const files: GeneratedFile[] = [];
  for (let i = 0; i < n; i++) {
    if (skip(i)) continue;
    files.push({ path: `pkg${i % 7}/sub${i % 3}/file${i}.ts`, contents: `// ${tag} ${i}\n${"x".repeat(2000 + (i % 50) * 40)}\n` });
  }
  files.push({ path: "seed/handlers.ts", contents: `// seed ${tag}\n`, userOwned: true });
  files.push({
    path: "manifest.json",
    contents: JSON.stringify({ generator: { name: "collab-rest-codegen", version: "0.0.0" }, files: Object.fromEntries(files.filter((f) => !f.userOwned).map((f) => [f.path, sha256(f.contents)])), userOwned: ["seed/handlers.ts"] }),
  });
  return files;
}

const USER_FILES = { "notes.md": "mine\n", "pkg0/helpers.ts": "// mine\n", "seed/handlers.ts": "// the user's handlers\n", "src/main.ts": "main()\n" };

function same(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a).sort();
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

function expectedTree(files: GeneratedFile[]): Record<string, string> {
  const tree: Record<string, string> = { ...USER_FILES };
  for (const f of files) if (!f.userOwned) tree[f.path] = f.contents;
  return tree;
}

describe("a write killed at any moment (D9)", () => {
  const oldSet = fileSet("old", 400);
  // The new set changes every file, drops some and adds others, so that a mix would show.
  const newSet = fileSet("new", 440, (i) => i % 9 === 4);
  const script = `
    import { readFileSync } from "node:fs";
    import { planOutput, writeOutput } from ${JSON.stringify(join(ROOT, "dist/generator/render/write.js"))};
    const [out, filesJson] = process.argv.slice(1);
    const files = JSON.parse(readFileSync(filesJson, "utf8"));
    const plan = planOutput(out, files);
    process.stdout.write("go\\n");
    await writeOutput(out, plan);
    process.stdout.write("done\\n");`;
  const newJson = join(work, "new-set.json");
  writeFileSync(newJson, JSON.stringify(newSet));

  async function prepare(name: string): Promise<string> {
    const out = join(work, name);
    for (const [p, c] of Object.entries(USER_FILES)) {
      mkdirSync(dirname(join(out, p)), { recursive: true });
      writeFileSync(join(out, p), c);
    }
    await writeOutput(out, planOutput(out, oldSet));
    expect(snapshot(out)).toEqual(expectedTree(oldSet));
    return out;
  }

  /** Runs the write in a child process and kills it `delayMs` after it starts writing (never when `delayMs` is null). */
  function writeInChild(out: string, delayMs: number | null): Promise<{ finished: boolean; ms: number }> {
    return new Promise((resolveRun, reject) => {
      const child = spawn(process.execPath, ["--input-type=module", "-e", script, out, newJson], { stdio: ["ignore", "pipe", "inherit"] });
      let started = 0;
      let out_ = "";
      child.stdout.on("data", (d: Buffer) => {
        out_ += String(d);
        if (!started && out_.includes("go\n")) {
          started = performance.now();
          if (delayMs !== null) setTimeout(() => child.kill("SIGKILL"), delayMs);
        }
      });
      child.on("error", reject);
      child.on("exit", () => resolveRun({ finished: out_.includes("done\n"), ms: performance.now() - started }));
    });
  }

  it("leaves the old set or the new set after recovery, never a mix; no user file lost; nothing left behind", async () => {
    const timing = await writeInChild(await prepare("measure"), null);
    expect(timing.finished).toBe(true);
    const window = Math.max(5, timing.ms * 1.2);
    const outcomes = { old: 0, new: 0, interrupted: 0, committed: 0 };
    const kills = 24;
    for (let k = 0; k < kills; k++) {
      const out = await prepare(`kill-${k}`);
      // Spread the kills over the whole write: early (staging), middle (the moves) and late (cleanup).
      const run = await writeInChild(out, (window * (k + Math.random())) / kills);
      if (existsSync(join(out, WORK_DIR))) {
        outcomes.interrupted++;
        if (existsSync(join(out, WORK_DIR, "journal.json"))) outcomes.committed++;
      }
      const recovered = await recoverOutput(out);
      expect(existsSync(join(out, WORK_DIR))).toBe(false);
      if (recovered === "completed") expect(outcomes.committed).toBeGreaterThan(0);
      const tree = snapshot(out);
      const isOld = same(tree, expectedTree(oldSet));
      const isNew = same(tree, expectedTree(newSet));
      if (!isOld && !isNew) expect(tree).toEqual(expectedTree(run.finished ? newSet : oldSet));
      outcomes[isOld ? "old" : "new"]++;
      for (const [p, c] of Object.entries(USER_FILES)) expect(readFileSync(join(out, p), "utf8")).toBe(c);
      expect(readdirSync(work).filter((n) => n.startsWith(`kill-${k}.`))).toEqual([]);
      // The next run over a recovered folder finishes the job.
      await writeOutput(out, planOutput(out, newSet));
      expect(snapshot(out)).toEqual(expectedTree(newSet));
    }
    // The kills landed inside the write, on both sides of the commit point, not only before or after it.
    expect(outcomes.interrupted).toBeGreaterThanOrEqual(4);
    expect(outcomes.old + outcomes.new).toBe(kills);
    expect(outcomes.old).toBeGreaterThan(0);
    expect(outcomes.new).toBeGreaterThan(0);
  });

  it("--check after a kill finishes the interrupted write first, then compares", async () => {
    const out = await prepare("check-after-kill");
    // A committed journal with one move left, as a kill after the commit point leaves it.
    const plan = planOutput(out, newSet);
    const { mkdir, writeFile } = await import("node:fs/promises");
    await mkdir(join(out, WORK_DIR, "staged"), { recursive: true });
    const journal = { version: 1, writes: plan.writes.map((w, i) => ({ staged: String(i), path: w.path })), removes: plan.removes };
    for (const [i, w] of plan.writes.entries()) await writeFile(join(out, WORK_DIR, "staged", String(i)), w.contents);
    await writeFile(join(out, WORK_DIR, "journal.json"), JSON.stringify(journal));
    expect(await recoverOutput(out)).toBe("completed");
    const report = await checkOutput(out, newSet);
    expect(report.stale).toEqual([]);
    expect(report.missing).toEqual([]);
    expect(report.extra).toEqual([]);
    expect(report.untracked).toEqual(["notes.md", "pkg0/helpers.ts", "seed/handlers.ts", "src/"]);
  });
});
