import { createRequire } from "node:module";
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import v8 from "node:v8";
import type { FragmentCache } from "../source/index.js";
import { sha256 } from "../util/hash.js";

/**
 * The files of the config's `cache` folder: the reference's page readings (reference/front-end.ts) as JSON, and the
 * emit stage's printed texts (emit/memo.ts) in V8's serialization, which Node reads back in a fifth of the time
 * JSON.parse takes over the whole platform's 24 MB of them (the pages' readings it reads in about the same time).
 */
export const CACHE_FILE = "reference-pages.json";
export const PRINT_CACHE_FILE = "printed.v8";

interface CacheCodec {
  decode: (bytes: Buffer) => { salt?: unknown; entries?: unknown };
  encode: (salt: string, entries: Map<string, unknown>) => string | Uint8Array;
  entriesOf: (entries: unknown) => Map<string, unknown> | null;
}

const JSON_CODEC: CacheCodec = {
  decode: (bytes) => JSON.parse(bytes.toString("utf8")) as { salt?: unknown; entries?: unknown },
  encode: (salt, entries) => JSON.stringify({ salt, entries: Object.fromEntries(entries) }),
  entriesOf: (entries) => (entries && typeof entries === "object" && !Array.isArray(entries) ? new Map(Object.entries(entries)) : null),
};

/** Texts as UTF-8 bytes: V8 writes a string with any character past Latin-1 as UTF-16, twice the bytes. */
const V8_CODEC: CacheCodec = {
  decode: (bytes) => v8.deserialize(bytes) as { salt?: unknown; entries?: unknown },
  encode: (salt, entries) => v8.serialize({ salt, entries: new Map([...entries].map(([k, v]) => [k, typeof v === "string" ? Buffer.from(v, "utf8") : v])) }),
  entriesOf: (entries) => (entries instanceof Map ? new Map([...entries].map(([k, v]) => [String(k), v instanceof Uint8Array ? Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("utf8") : v])) : null),
};

const CODECS: Readonly<Record<string, CacheCodec>> = { [CACHE_FILE]: JSON_CODEC, [PRINT_CACHE_FILE]: V8_CODEC };

/**
 * A cache file of the config's `cache` folder: one file of this generator's, read when it is there and whole and
 * written by this build (its salt), else ignored; a run never depends on it (its output is the same bytes without it).
 */
export function loadCache(folder: string | null, file = CACHE_FILE): FragmentCache | null {
  if (!folder) return null;
  const salt = generatorDigest();
  const codec = CODECS[file] ?? JSON_CODEC;
  let entries = new Map<string, unknown>();
  try {
    const stored = codec.decode(readFileSync(join(folder, file)));
    const read = stored.salt === salt ? codec.entriesOf(stored.entries) : null;
    if (read) entries = read;
  } catch {
    // No cache yet, or one this generator cannot read: every page is read and every text printed anew.
  }
  return { salt, entries, next: new Map() };
}

/**
 * Keeps this run's entries (the others were stale), written whole under a draft name and renamed into place; a cache
 * this run found whole and used whole is not written again. A folder that cannot take it is said, not thrown.
 */
export function saveCache(folder: string | null, cache: FragmentCache | undefined | null, file = CACHE_FILE): { failed: string } | null {
  if (!folder || !cache) return null;
  // A run that used every entry it found and added none leaves the file as it was (a key names its entry's inputs).
  if (cache.next.size === cache.entries.size && [...cache.next.keys()].every((k) => cache.entries.has(k))) return null;
  const draft = join(folder, `.${file}.${process.pid}`);
  try {
    mkdirSync(folder, { recursive: true });
    // A draft a killed run left under this process id goes (a link is removed, not followed); `wx` then refuses a
    // draft name another process puts a file or a link at in between, never following or overwriting it.
    rmSync(draft, { force: true });
    writeFileSync(draft, (CODECS[file] ?? JSON_CODEC).encode(cache.salt, cache.next), { flag: "wx" });
    renameSync(draft, join(folder, file));
    return null;
  } catch (err) {
    // The cache only saves time: a folder that cannot take it costs the next run its speed, not its result.
    return { failed: (err as Error).message };
  }
}

let digest: string | null = null;

/**
 * The libraries whose output the cached texts are: prettier's document printer lays out the declarations, js-yaml
 * writes the YAML. Another version of either could print other bytes with the generator's code unchanged.
 */
const PRINTERS = ["prettier", "js-yaml"] as const;

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
