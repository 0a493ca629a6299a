import { type BigIntStats, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { GeneratedFile } from "../emit/files.js";
import { sha256 } from "../util/hash.js";
import { parseManifest } from "./plan.js";

/**
 * A record of what a run left in the output folder (the config's `cache` folder, `written.json`): for each generated
 * file, its size, times and inode as the run saw them just after the write, with the sha256 of the bytes it holds.
 * The next run's write plan takes a file whose status is still the recorded one to hold the recorded bytes, and does
 * not read it: the whole platform's output is 69 MB, and a rerun after one page changed spent half a second reading
 * and decoding it to find 416 of its 435 files unchanged.
 *
 * Written by hand, as git's index does the same for a work tree and no library offers it for a folder of ours. A
 * file any program edits gets a new ctime (a rename over it, a new inode), which no tool can set back, so an edit is
 * seen without reading the file. The one window is git's "racily clean" file: an edit in the same clock tick as the
 * recorded status. A file whose ctime is not older than the record's own write is therefore not trusted and is read,
 * as every file is without a record.
 */

export const WRITE_RECORD_FILE = "written.json";

/** size, mtime (ns), ctime (ns), inode, sha256 of the bytes: a record's entry, as decimal strings for the 64-bit numbers. */
type Entry = [size: string, mtimeNs: string, ctimeNs: string, ino: string, sha256: string];

interface Stored {
  version: 1;
  /** The real path of the output folder the entries describe: a record of another folder is not used. */
  out: string;
  entries: Record<string, Entry>;
}

/** A file's sha256 when a record vouches for its bytes without reading it; `undefined` when it must be read. */
export type KnownDisk = (path: string) => string | undefined;

function statOf(full: string): BigIntStats | undefined {
  try {
    const s = statSync(full, { bigint: true });
    return s.isFile() ? s : undefined;
  } catch {
    return undefined;
  }
}

function realOut(out: string): string {
  try {
    return realpathSync(out);
  } catch {
    return resolve(out);
  }
}

/**
 * Whether an entry still describes the file: the same size, times and inode, and a ctime older than the record's own
 * write (`recordedNs`), so that an edit in the clock tick of the recorded status cannot hide behind it.
 */
export function vouches(entry: readonly string[], s: Pick<BigIntStats, "size" | "mtimeNs" | "ctimeNs" | "ino">, recordedNs: bigint): boolean {
  return entry[0] === String(s.size) && entry[1] === String(s.mtimeNs) && entry[2] === String(s.ctimeNs) && entry[3] === String(s.ino) && s.ctimeNs < recordedNs;
}

/** The record in `folder` for the output folder `out`; `null` when there is none this run can use. */
export function loadWriteRecord(folder: string | null, out: string): KnownDisk | null {
  if (!folder) return null;
  const file = join(folder, WRITE_RECORD_FILE);
  let stored: Stored;
  let recordedNs: bigint;
  try {
    recordedNs = statSync(file, { bigint: true }).mtimeNs;
    stored = JSON.parse(readFileSync(file, "utf8")) as Stored;
  } catch {
    return null;
  }
  if (!stored || stored.version !== 1 || stored.out !== realOut(out) || !stored.entries || typeof stored.entries !== "object") return null;
  const entries = stored.entries;
  return (path) => {
    const entry = Object.hasOwn(entries, path) ? entries[path] : undefined;
    if (!Array.isArray(entry) || entry.length !== 5 || !entry.every((x) => typeof x === "string")) return undefined;
    const s = statOf(resolve(out, ...path.split("/")));
    return s && vouches(entry, s, recordedNs) ? entry[4] : undefined;
  };
}

/**
 * Records the status of the files at `hashes`' paths, each holding the bytes of its hash (the run just wrote or
 * compared them); written under a draft name and renamed into place. A folder that cannot take it is said, not thrown.
 */
export function saveWriteRecord(folder: string | null, out: string, hashes: ReadonlyMap<string, string>): { failed: string } | null {
  if (!folder) return null;
  const entries: Record<string, Entry> = {};
  for (const [path, hash] of [...hashes].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    const s = statOf(resolve(out, ...path.split("/")));
    if (s) entries[path] = [String(s.size), String(s.mtimeNs), String(s.ctimeNs), String(s.ino), hash];
  }
  const stored: Stored = { version: 1, out: realOut(out), entries };
  const draft = join(folder, `.${WRITE_RECORD_FILE}.${process.pid}`);
  try {
    mkdirSync(folder, { recursive: true });
    rmSync(draft, { force: true });
    writeFileSync(draft, JSON.stringify(stored), { flag: "wx" });
    renameSync(draft, join(folder, WRITE_RECORD_FILE));
    return null;
  } catch (err) {
    rmSync(draft, { force: true });
    return { failed: (err as Error).message };
  }
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
