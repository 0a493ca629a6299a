import { createRequire } from "node:module";
import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import v8 from "node:v8";
import type { FragmentCache } from "../source/index.js";
import { sha256 } from "../util/hash.js";

/**
 * The files of the config's `cache` folder: the reference's page readings (reference/front-end.ts) and the emit
 * stage's printed texts (emit/memo.ts). Each is a log of records, each record one V8 serialization of a salt and
 * entries: Node reads it back in a fifth of the time JSON.parse takes over the 24 MB of printed texts, and writes it
 * without first building a JSON text. A run that adds entries appends one record of them, as long as the file holds
 * no more stale entries than live ones; else it writes the file anew with this run's entries only. A rerun after one
 * page changed appended a few hundred entries where it wrote 36 MB (0.3-0.4 s).
 *
 * Written by hand: no library keeps an append-only map file for Node without a native build. A record is its
 * length, the sha256 of its bytes, and the bytes; a record cut short (a killed run) or altered ends the reading
 * there, and the next save writes the file anew rather than append behind it.
 */
export const CACHE_FILE = "reference-pages.v8";
export const PRINT_CACHE_FILE = "printed.v8";

const HEAD = 4 + 32;

/** A record's bytes: texts as UTF-8 bytes (V8 writes a string with any character past Latin-1 as UTF-16, twice the bytes). */
export function cacheRecord(salt: string, entries: ReadonlyMap<string, unknown>): Buffer {
  const body = v8.serialize({ salt, entries: new Map([...entries].map(([k, v]) => [k, typeof v === "string" ? Buffer.from(v, "utf8") : v])) });
  const head = Buffer.alloc(HEAD);
  head.writeUInt32BE(body.length, 0);
  createHash("sha256").update(body).digest().copy(head, 4);
  return Buffer.concat([head, body]);
}

/** The records of a cache file, in order, up to the first that is cut short or altered; and the bytes they span. */
export function readCacheRecords(bytes: Buffer): { records: Array<{ salt: unknown; entries: Map<string, unknown> | null }>; whole: number } {
  const records: Array<{ salt: unknown; entries: Map<string, unknown> | null }> = [];
  let at = 0;
  while (at + HEAD <= bytes.length) {
    const n = bytes.readUInt32BE(at);
    if (at + HEAD + n > bytes.length) break;
    const body = bytes.subarray(at + HEAD, at + HEAD + n);
    if (!createHash("sha256").update(body).digest().equals(bytes.subarray(at + 4, at + HEAD))) break;
    let stored: { salt?: unknown; entries?: unknown };
    try {
      stored = v8.deserialize(body) as { salt?: unknown; entries?: unknown };
    } catch {
      break;
    }
    const entries = stored?.entries instanceof Map ? new Map([...stored.entries].map(([k, v]) => [String(k), v instanceof Uint8Array ? Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("utf8") : v])) : null;
    records.push({ salt: stored?.salt, entries });
    at += HEAD + n;
  }
  return { records, whole: at };
}

/** What a loaded cache's file was: its bytes that are whole records of this build, and its status then. */
interface Loaded {
  appendable: boolean;
  size: number;
  ino: number;
  /** Entries in all the file's records, those a later record replaced included: what the file holds, live or not. */
  held: number;
}

const LOADED = new WeakMap<FragmentCache, Loaded>();

/**
 * A cache file of the config's `cache` folder: its records written by this build (their salt), else nothing; a run
 * never depends on it (its output is the same bytes without it).
 */
export function loadCache(folder: string | null, file = CACHE_FILE): FragmentCache | null {
  if (!folder) return null;
  const salt = generatorDigest();
  const entries = new Map<string, unknown>();
  const cache: FragmentCache = { salt, entries, next: new Map() };
  try {
    const path = join(folder, file);
    // The file itself, not what a link there names: a link is neither read nor appended through (a save replaces it).
    const status = lstatSync(path);
    if (!status.isFile()) return cache;
    const { size, ino } = status;
    const bytes = readFileSync(path);
    const { records, whole } = readCacheRecords(bytes);
    // Only a file of this build's records, whole to its end, is appended to.
    const ours = records.every((r) => r.salt === salt && r.entries !== null);
    for (const r of records) if (r.salt === salt && r.entries) for (const [k, v] of r.entries) entries.set(k, v);
    const held = records.reduce((n, r) => n + (r.entries?.size ?? 0), 0);
    LOADED.set(cache, { appendable: ours && whole === bytes.length && whole === size, size, ino, held });
  } catch {
    // No cache yet, or one this generator cannot read: every page is read and every text printed anew.
  }
  return cache;
}

/**
 * Keeps this run's entries: appended as one record when the file stays at most half stale, else the file written
 * anew with them alone, under a draft name renamed into place. A cache this run found whole and used whole is not
 * written again. A folder that cannot take it is said, not thrown.
 */
export function saveCache(folder: string | null, cache: FragmentCache | undefined | null, file = CACHE_FILE): { failed: string } | null {
  if (!folder || !cache) return null;
  // New entries, and entries read anew under a key the file has (a page whose include changed): not the loaded value.
  const added = new Map([...cache.next].filter(([k, v]) => !cache.entries.has(k) || cache.entries.get(k) !== v));
  // A run that used every entry it found and added none leaves the file as it was (a key names its entry's inputs).
  if (added.size === 0 && cache.next.size === cache.entries.size) return null;
  const path = join(folder, file);
  const loaded = LOADED.get(cache);
  // What the file would hold that no run uses: at most as many entries as it holds live ones.
  const tidy = loaded !== undefined && loaded.held + added.size - cache.next.size <= cache.next.size;
  try {
    // Nothing added (entries only dropped, within the bound): the file stays as it is.
    if (loaded?.appendable && tidy && (added.size === 0 || appendTo(path, loaded, cacheRecord(cache.salt, added)))) return null;
    // The page readings were JSON in an earlier build (`reference-pages.json`): that file is this generator's, and goes.
    if (file === CACHE_FILE) rmSync(join(folder, "reference-pages.json"), { force: true });
    const draft = join(folder, `.${file}.${process.pid}`);
    mkdirSync(folder, { recursive: true });
    // A draft a killed run left under this process id goes (a link is removed, not followed); `wx` then refuses a
    // draft name another process puts a file or a link at in between, never following or overwriting it.
    rmSync(draft, { force: true });
    writeFileSync(draft, cacheRecord(cache.salt, cache.next), { flag: "wx" });
    renameSync(draft, path);
    return null;
  } catch (err) {
    // The cache only saves time: a folder that cannot take it costs the next run its speed, not its result.
    return { failed: (err as Error).message };
  }
}

/**
 * Appends a record to the file loaded, opened without following a link, when it is still that file as long as it
 * was then (no other run replaced or appended to it since); false when it is not, and nothing was written.
 */
function appendTo(path: string, loaded: Loaded, record: Buffer): boolean {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW);
  } catch {
    return false;
  }
  try {
    const now = fstatSync(fd);
    if (!now.isFile() || now.ino !== loaded.ino || now.size !== loaded.size) return false;
    for (let at = 0; at < record.length; ) at += writeSync(fd, record, at);
    return true;
  } finally {
    closeSync(fd);
  }
}

let digest: string | null = null;

/**
 * The libraries whose output the cached texts are: prettier's document printer lays out the declarations, js-yaml
 * writes the YAML, and ts-morph's bundled TypeScript parser reads the pages' result shapes (reference/shape.ts).
 * Another version of any could give other bytes with the generator's code unchanged.
 */
const PRINTERS = ["prettier", "js-yaml", "ts-morph"] as const;

/**
 * A hash of this generator's own compiled code and of its printers' versions (PRINTERS): a cache entry of another
 * build, or of the same build over other printers, is never used.
 */
function generatorDigest(): string {
  if (digest) return digest;
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  const parts: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name.endsWith(".js")) parts.push(e.name, readFileSync(full, "utf8"));
    }
  };
  walk(root);
  const require = createRequire(import.meta.url);
  for (const name of PRINTERS) parts.push(name, String((require(`${name}/package.json`) as { version?: unknown }).version));
  digest = sha256(parts.join("\0"));
  return digest;
}
