import type { GeneratedFile } from "../emit/files.js";
import { sha256 } from "../util/hash.js";
import { GENERATOR_NAME } from "../options.js";

/**
 * Which files a run may write, replace and remove (decisions.md D1), decided from the previous manifest and what
 * is on disk. Pure: the caller reads the disk and carries the plan out. The rules:
 *
 * - a generated file is written when absent, replaced only while its bytes still match the previous manifest's hash
 *   (an edited copy is kept with a warning unless `force`; a file the generator never wrote is kept, `force` or not);
 * - a file the previous manifest lists but this run no longer generates is removed on the same condition;
 * - a user-owned seed (the handler skeleton) is created when absent and never replaced, moved or removed; the one
 *   edit it gets is a merge (new stubs, `@deprecated` lines) computed from the bytes on disk, written only while the
 *   disk still holds those bytes;
 * - nothing else in the folder is ever touched.
 */

/** The manifest's members that ownership reads; `manifest.json` holds more (generator, spec). */
export interface OwnershipManifest {
  /** Generated files, by path relative to the output folder, with the sha256 of the bytes the run meant to write. */
  files: Record<string, string>;
  /** User-owned seeds the generator created when they were absent. */
  userOwned: string[];
}

/** The manifest does not list itself: a manifest this module can read is the previous run's own. */
const MANIFEST_PATH = "manifest.json";

export type PlannedWrite = { path: string; contents: string; why: "new" | "changed" | "seed" | "merged" };
export type Kept = { path: string; why: "edited" | "not-generated" | "edited-obsolete" };

export interface WritePlan {
  writes: PlannedWrite[];
  removes: string[];
  /** Files the run leaves as they are although the spec says otherwise: each is a warning naming it. */
  kept: Kept[];
  /** Seeds the previous run created at a path the config no longer names: they stay, with a notice. */
  movedSeeds: Array<{ from: string; to: string }>;
  unchanged: number;
}

/** What the disk holds at a path: its bytes as text, or `undefined` when there is no file. */
export type DiskReader = (path: string) => string | undefined;

/**
 * What a run knows of the disk without reading it (render/record.ts): the sha256 of a file's bytes when a record of
 * an earlier write vouches for them, and the sha256 of each file this run generates (its manifest's). A path either
 * leaves out is read.
 */
export interface KnownHashes {
  disk: (path: string) => string | undefined;
  generated: ReadonlyMap<string, string>;
}

export function planWrite(
  files: readonly GeneratedFile[],
  previous: OwnershipManifest | null,
  disk: DiskReader,
  options: { force?: boolean; known?: KnownHashes } = {},
): WritePlan {
  const plan: WritePlan = { writes: [], removes: [], kept: [], movedSeeds: [], unchanged: 0 };
  const prevFiles = previous?.files ?? {};
  const generated = new Set<string>();
  for (const f of files) {
    generated.add(f.path);
    if (f.userOwned) {
      const current = disk(f.path);
      if (current === undefined) plan.writes.push({ path: f.path, contents: f.contents, why: "seed" });
      else if (f.mergedFrom !== undefined && current === f.mergedFrom && f.contents !== current) plan.writes.push({ path: f.path, contents: f.contents, why: "merged" });
      else plan.unchanged++;
      continue;
    }
    // A file a record vouches for is judged by hashes, unread: the same rules, over its bytes' sha256.
    const vouched = options.known?.disk(f.path);
    const mine = options.known?.generated.get(f.path);
    const byHash = vouched !== undefined && mine !== undefined;
    const current = byHash ? undefined : disk(f.path);
    if (!byHash && current === undefined) {
      plan.writes.push({ path: f.path, contents: f.contents, why: "new" });
    } else if (byHash ? vouched === mine : current === f.contents) {
      plan.unchanged++;
    } else if ((f.path === MANIFEST_PATH && previous !== null) || (Object.hasOwn(prevFiles, f.path) && (options.force || prevFiles[f.path] === (byHash ? vouched : sha256(current ?? ""))))) {
      // `force` replaces a generated file that was edited, never a file the generator did not write (issue 24).
      plan.writes.push({ path: f.path, contents: f.contents, why: "changed" });
    } else {
      plan.kept.push({ path: f.path, why: Object.hasOwn(prevFiles, f.path) ? "edited" : "not-generated" });
    }
  }
  for (const [path, hash] of Object.entries(prevFiles)) {
    if (generated.has(path)) continue;
    const vouched = options.known?.disk(path);
    const current = vouched === undefined ? disk(path) : undefined;
    if (vouched === undefined && current === undefined) continue;
    if (options.force || (vouched ?? sha256(current ?? "")) === hash) plan.removes.push(path);
    else plan.kept.push({ path, why: "edited-obsolete" });
  }
  const seeds = files.filter((f) => f.userOwned).map((f) => f.path);
  for (const old of previous?.userOwned ?? []) {
    if (seeds.includes(old) || disk(old) === undefined) continue;
    const to = seeds[0];
    if (to) plan.movedSeeds.push({ from: old, to });
  }
  // The manifest goes last: until it is in place, the previous one still describes the folder.
  plan.writes.sort((a, b) => Number(a.path === MANIFEST_PATH) - Number(b.path === MANIFEST_PATH));
  return plan;
}

/** The generator's name as its manifests record it; a `manifest.json` that does not name it is a user's file. */
export const MANIFEST_GENERATOR = GENERATOR_NAME;

/**
 * Reads the ownership members of a manifest's text; `null` when it is absent or not a manifest of ours: a JSON file
 * of the user's that happens to be called `manifest.json` is theirs, and is never replaced (issue 24).
 */
export function parseManifest(text: string | undefined): OwnershipManifest | null {
  if (text === undefined) return null;
  try {
    const raw = JSON.parse(text) as { files?: unknown; userOwned?: unknown; generator?: { name?: unknown } };
    if (!raw || typeof raw !== "object" || raw.generator?.name !== MANIFEST_GENERATOR || !raw.files || typeof raw.files !== "object") return null;
    const files: Record<string, string> = {};
    if (raw.files && typeof raw.files === "object") {
      for (const [k, v] of Object.entries(raw.files)) if (typeof v === "string" && safeRelative(k)) files[k] = v;
    }
    const userOwned = Array.isArray(raw.userOwned) ? raw.userOwned.filter((p): p is string => typeof p === "string") : [];
    return { files, userOwned };
  } catch {
    return null;
  }
}

/**
 * A generated path must stay inside the output folder: a manifest someone edited to list `../x` must not make a
 * run remove a file outside it. User-owned seeds may lie outside (the `skeleton` config key); they are never removed.
 */
export function safeRelative(path: string): boolean {
  return path.length > 0 && !path.startsWith("/") && !/^[A-Za-z]:/.test(path) && !path.split(/[\\/]/).some((p) => p === ".." || p === "");
}
