import { type BigIntStats, closeSync, fstatSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { GeneratedFile } from "../emit/files.js";
import { sha256 } from "../util/hash.js";
import { type WritePlan, parseManifest } from "./plan.js";

/**
 * A record of what a run left in the output folder (the config's `cache` folder, `written.json`): for each generated
 * file, its size, times and inode as the run saw them when it last held the file's bytes, with the sha256 of those
 * bytes. The next run's write plan takes a file whose status is still the recorded one to hold the recorded bytes,
 * and does not read it: the whole platform's output is 69 MB, and a rerun after one page changed spent half a second
 * reading and decoding it to find 416 of its 435 files unchanged.
 *
 * Written by hand, as git's index does the same for a work tree and no library offers it for a folder of ours. Each
 * status is taken where the run knows the bytes: a file the plan read, by `fstat` on the descriptor it read, before
 * and after the read (a file that changed meanwhile gets no entry); a file the run wrote, by `stat` just after its
 * rename into place, its size checked against the bytes written; a file the record vouched for keeps its entry. A
 * file any program edits later gets a new ctime (a rename over it, a new inode), which no tool can set back, so the
 * edit is seen without reading the file. The windows left are git's: an edit in the clock tick of the status, which
 * the stamp below rules out, and a same-size edit between a rename and the `stat` that follows it.
 *
 * The stamp: a file written in the output folder's work folder after every status was taken; its mtime is on the
 * output's file system and clock. An entry whose ctime is not older than the stamp is "racily clean" (git's term)
 * and is read, as every file is without a record.
 */

export const WRITE_RECORD_FILE = "written.json";

/** size, mtime (ns), ctime (ns), inode, sha256 of the bytes: a record's entry, as decimal strings for the 64-bit numbers. */
export type RecordEntry = [size: string, mtimeNs: string, ctimeNs: string, ino: string, sha256: string];

interface OutRecord {
  /** The stamp's mtime (ns): every entry was taken before it. */
  stampNs: string;
  entries: Record<string, RecordEntry>;
}

interface Stored {
  version: 2;
  /** By the real path of the output folder: configs that share a cache folder each keep their own. */
  outs: Record<string, OutRecord>;
}

type Status = Pick<BigIntStats, "size" | "mtimeNs" | "ctimeNs" | "ino">;

/** What a run's record knows: the hashes it vouches for, and the entries behind them (kept as they are when still good). */
export interface WriteRecord {
  disk: (path: string) => string | undefined;
  entry: (path: string) => RecordEntry | undefined;
}

function realOut(out: string): string {
  try {
    return realpathSync(out);
  } catch {
    return resolve(out);
  }
}

function readStored(folder: string): Stored | null {
  try {
    const stored = JSON.parse(readFileSync(join(folder, WRITE_RECORD_FILE), "utf8")) as Stored;
    return stored && stored.version === 2 && stored.outs && typeof stored.outs === "object" ? stored : null;
  } catch {
    return null;
  }
}

function entryOf(s: Status, hash: string): RecordEntry {
  return [String(s.size), String(s.mtimeNs), String(s.ctimeNs), String(s.ino), hash];
}

/**
 * Whether an entry still describes the file: the same size, times and inode, and a ctime older than the stamp taken
 * after it (`stampNs`), so that an edit in the clock tick of the recorded status cannot hide behind it.
 */
export function vouches(entry: readonly string[], s: Status, stampNs: bigint): boolean {
  return entry[0] === String(s.size) && entry[1] === String(s.mtimeNs) && entry[2] === String(s.ctimeNs) && entry[3] === String(s.ino) && s.ctimeNs < stampNs;
}

/** The record in `folder` for the output folder `out`; `null` when there is none this run can use. */
export function loadWriteRecord(folder: string | null, out: string): WriteRecord | null {
  if (!folder) return null;
  const mine = readStored(folder)?.outs[realOut(out)];
  if (!mine || typeof mine !== "object" || !mine.entries || typeof mine.entries !== "object" || !/^\d+$/.test(String(mine.stampNs))) return null;
  const stampNs = BigInt(mine.stampNs);
  const entries = mine.entries;
  const good = (path: string): RecordEntry | undefined => {
    const entry = Object.hasOwn(entries, path) ? entries[path] : undefined;
    if (!Array.isArray(entry) || entry.length !== 5 || !entry.every((x) => typeof x === "string")) return undefined;
    let s: BigIntStats;
    try {
      s = statSync(resolve(out, ...path.split("/")), { bigint: true });
    } catch {
      return undefined;
    }
    return s.isFile() && vouches(entry, s, stampNs) ? entry : undefined;
  };
  return { disk: (path) => good(path)?.[4], entry: good };
}

/**
 * A file's text and its status while the run held those bytes (`fstat` on the descriptor before and after the
 * read); no status when the file changed as it was read. `undefined` when there is no file.
 */
export function readWithStatus(full: string): { text: string; status: BigIntStats | null } | undefined {
  let fd: number;
  try {
    fd = openSync(full, "r");
  } catch {
    return undefined;
  }
  try {
    const before = fstatSync(fd, { bigint: true });
    if (!before.isFile()) return undefined;
    const text = readFileSync(fd, "utf8");
    const after = fstatSync(fd, { bigint: true });
    const same = before.size === after.size && before.mtimeNs === after.mtimeNs && before.ctimeNs === after.ctimeNs;
    return { text, status: same ? after : null };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** What a run knows of each file it leaves generated: a status taken while it held the bytes of `hash`, or an entry still good. */
export type Held = { status: Status; hash: string } | { entry: RecordEntry };

/**
 * Records the files of `held` for `out`, after a stamp taken in `work` (the output's work folder, on its file system);
 * written under a draft name and renamed into place. A folder that cannot take it is said, not thrown.
 */
export function saveWriteRecord(folder: string | null, out: string, work: string, held: ReadonlyMap<string, Held>): { failed: string } | null {
  if (!folder) return null;
  const entries: Record<string, RecordEntry> = {};
  for (const [path, h] of [...held].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) entries[path] = "entry" in h ? h.entry : entryOf(h.status, h.hash);
  const draft = join(folder, `.${WRITE_RECORD_FILE}.${process.pid}`);
  const stamp = join(work, `stamp.${process.pid}`);
  try {
    mkdirSync(work, { recursive: true });
    rmSync(stamp, { force: true });
    writeFileSync(stamp, "", { flag: "wx" });
    const stampNs = statSync(stamp, { bigint: true }).mtimeNs;
    rmSync(stamp, { force: true });
    const stored = readStored(folder) ?? { version: 2, outs: {} };
    stored.outs[realOut(out)] = { stampNs: String(stampNs), entries };
    mkdirSync(folder, { recursive: true });
    rmSync(draft, { force: true });
    writeFileSync(draft, JSON.stringify(stored), { flag: "wx" });
    renameSync(draft, join(folder, WRITE_RECORD_FILE));
    return null;
  } catch (err) {
    rmSync(draft, { force: true });
    rmSync(stamp, { force: true });
    return { failed: (err as Error).message };
  }
}

/**
 * What a write left that the record can keep: each generated file whose bytes the run held, with the status it had
 * then. A file written whose size is not the bytes written, or read while it changed, or kept as the user left it,
 * gets no entry and is read next time.
 */
export function heldAfterWrite(plan: WritePlan, hashes: ReadonlyMap<string, string>, record: WriteRecord | null, seen: ReadonlyMap<string, BigIntStats>, written: ReadonlyMap<string, BigIntStats>): Map<string, Held> {
  const held = new Map<string, Held>();
  const writes = new Map(plan.writes.map((w) => [w.path, w.contents]));
  const kept = new Set(plan.kept.map((k) => k.path));
  for (const [path, hash] of hashes) {
    if (kept.has(path)) continue;
    const contents = writes.get(path);
    if (contents !== undefined) {
      const status = written.get(path);
      if (status && status.size === BigInt(Buffer.byteLength(contents, "utf8"))) held.set(path, { status, hash });
      continue;
    }
    const entry = record?.entry(path);
    const status = seen.get(path);
    if (entry && entry[4] === hash) held.set(path, { entry });
    else if (status) held.set(path, { status, hash });
  }
  return held;
}

/**
 * The sha256 of each file a run generates, from its manifest (which lists every file but the user's seeds, hashed as
 * they are written), and of the manifest itself: what the write plan compares a vouched file with.
 */
export function generatedHashes(files: readonly GeneratedFile[]): Map<string, string> {
  const manifest = files.find((f) => f.path === "manifest.json" && !f.userOwned);
  const hashes = new Map(Object.entries(parseManifest(manifest?.contents)?.files ?? {}));
  if (manifest) hashes.set(manifest.path, sha256(manifest.contents));
  return hashes;
}
