import { type BigIntStats, existsSync, lstatSync, readFileSync, realpathSync, statSync } from "node:fs";
import { copyFile, mkdir, readFile, readdir, rename, rm, rmdir, stat, unlink, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import type { GeneratedFile } from "../emit/files.js";
import { type KnownHashes, type OwnershipManifest, type WritePlan, parseManifest, planWrite, safeRelative } from "./plan.js";
import { pushAll } from "../util/arrays.js";
import { readWithStatus } from "./record.js";

/**
 * The one module that writes the output folder (decisions.md D1, D9). A run owns only the files its manifest
 * lists: it stages every new file in a working folder inside the output folder, commits a journal, then moves the
 * staged files into place one by one and removes the files it no longer generates. A process killed at any moment
 * leaves either no journal (the next run discards the staged files: the old set stands) or a committed journal
 * (the next run, or `--check`, finishes the moves: the new set stands). The output folder itself is never renamed
 * or replaced, so a symlinked folder is written through and there is no moment without an output folder.
 */

/** The working folder of a write, inside the output folder so that its renames stay on one file system. */
export const WORK_DIR = ".collab-rest-codegen";
const JOURNAL = "journal.json";
export const MANIFEST = "manifest.json";

/** A problem with the output folder that the user must fix: the CLI prints it as a usage error (exit 3). */
export class OutputError extends Error {}

function osReason(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e.code ? `${e.code}: ${e.message.replace(/^\w+: /, "").replace(/, \w+ '.*'$/, "")}` : String(e.message ?? err);
}

function targetOf(out: string, path: string): string {
  return resolve(out, ...path.split("/"));
}

/** A file's text, or `undefined` when there is no file at the path. */
export function readIfFile(full: string): string | undefined {
  try {
    return statSync(full).isFile() ? readFileSync(full, "utf8") : undefined;
  } catch {
    return undefined;
  }
}

export function readPreviousManifest(out: string): OwnershipManifest | null {
  return parseManifest(readIfFile(join(out, MANIFEST)));
}

function isInside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel));
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    // Not there yet: the real path of its nearest existing ancestor, with the rest appended.
    const parent = dirname(path);
    return parent === path ? path : join(realOrSelf(parent), relative(parent, path));
  }
}

export interface PreflightOptions {
  /** Files that must never lie inside the output folder: the spec and the config. */
  protect: Array<{ path: string; what: string }>;
  /** Write into a folder that looks like a project. Never lets a run remove or replace a file it did not generate. */
  force?: boolean;
}

/**
 * Refuses an output folder the run must not write into, before anything is rendered (issue 9): a file; a folder
 * that holds or is an ancestor of the spec or the config (always); a folder that looks like a project and holds
 * files the manifest does not list (`.git`, a `package.json` the generator did not write), unless `force`.
 */
export function preflightOutput(out: string, options: PreflightOptions): void {
  let stat: ReturnType<typeof statSync> | undefined;
  try {
    stat = statSync(out);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "ENOENT") throw new OutputError(`cannot use the output folder ${out}: ${osReason(err)}`);
  }
  if (stat && !stat.isDirectory()) throw new OutputError(`the output path ${out} is a file, not a folder; name a folder for --out`);
  const realOut = realOrSelf(out);
  for (const p of options.protect) {
    if (isInside(realOrSelf(p.path), realOut)) {
      throw new OutputError(`the output folder ${out} contains the ${p.what} (${p.path}); choose a folder of its own, such as ${join(out, "generated")}`);
    }
  }
  if (!stat || options.force) return;
  const manifest = readPreviousManifest(out);
  const listed = new Set(Object.keys(manifest?.files ?? {}));
  const signs: string[] = [];
  if (existsSync(join(out, ".git"))) signs.push(".git");
  if (existsSync(join(out, "package.json")) && !listed.has("package.json")) signs.push("package.json");
  if (signs.length > 0) {
    throw new OutputError(
      `the output folder ${out} looks like a project (${signs.join(", ")}, not written by collab-rest-codegen); ` +
        "choose a folder of its own, or pass --force to write the generated files beside it (nothing else is touched)",
    );
  }
}

interface Journal {
  version: 1;
  writes: Array<{ staged: string; path: string }>;
  removes: string[];
}

/**
 * `mkdir -p` one level at a time. Node's recursive mkdir retries forever when the kernel answers ENOENT for a child
 * of a folder that exists (`/proc/x`, issue 9); here that answer is an error with the OS's reason.
 */
async function ensureDir(path: string): Promise<void> {
  const missing: string[] = [];
  let dir = resolve(path);
  for (;;) {
    try {
      if (statSync(dir).isDirectory()) break;
      throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${dir}'`), { code: "ENOTDIR" });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
    missing.push(dir);
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  for (const d of missing.reverse()) {
    try {
      await mkdir(d);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
}

/**
 * Runs `fn` over `items`, `width` at a time. The output is hundreds of small files (one entry per area, D14): one
 * after the other, each write and rename waits a round of the thread pool; side by side they share it.
 */
async function eachBounded<T>(items: readonly T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { err: unknown } | null = null;
  const lane = async () => {
    // After a failure no lane starts another item; the ones under way finish before the failure is thrown, so that
    // nothing keeps writing behind the caller's back (a recovery that follows must find the folder at rest).
    while (next < items.length && !failure) {
      try {
        await fn(items[next++] as T);
      } catch (err) {
        failure ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  if (failure) throw (failure as { err: unknown }).err;
}

/** How many writes and renames run side by side. */
const WIDTH = 16;

async function moveInto(from: string, to: string, made?: Map<string, Promise<void>>): Promise<void> {
  // One `mkdir -p` per folder and run: the files of a folder wait for the same one.
  const dir = dirname(to);
  let ready = made?.get(dir);
  if (!ready) {
    ready = ensureDir(dir);
    made?.set(dir, ready);
  }
  await ready;
  try {
    await rename(from, to);
  } catch (err) {
    // A seed outside the output folder may live on another file system: copy beside it, then rename there.
    if ((err as NodeJS.ErrnoException).code !== "EXDEV") throw err;
    const beside = `${to}.${WORK_DIR}-tmp`;
    await copyFile(from, beside);
    await rename(beside, to);
    await unlink(from);
  }
}

/** Removes the folders a removal left empty, up to (not including) the output folder. */
async function pruneEmpty(out: string, path: string): Promise<void> {
  let dir = dirname(targetOf(out, path));
  while (isInside(dir, out) && dir !== resolve(out)) {
    try {
      await rmdir(dir);
    } catch {
      return;
    }
    dir = dirname(dir);
  }
}

async function applyJournal(out: string, journal: Journal, written?: Map<string, BigIntStats>): Promise<void> {
  const work = join(out, WORK_DIR);
  const made = new Map<string, Promise<void>>();
  await eachBounded(journal.writes, WIDTH, async (w) => {
    const staged = join(work, "staged", w.staged);
    // A move done before a kill is not there any more: moving is idempotent.
    if (existsSync(staged)) {
      await moveInto(staged, targetOf(out, w.path), made);
      // The file's status just after the rename: what the record keeps of the bytes just written.
      if (written) written.set(w.path, await stat(targetOf(out, w.path), { bigint: true }));
    }
  });
  for (const path of journal.removes) {
    if (!safeRelative(path)) continue;
    await rm(targetOf(out, path), { force: true });
    await pruneEmpty(out, path);
  }
  // The journal goes first: a kill past this point leaves only staged leftovers, which recovery discards.
  await rm(join(work, JOURNAL), { force: true });
  await clearWork(work);
}

/** Removes a write's staged files and journal; the working folder itself only when nothing else (the lock) is in it. */
async function clearWork(work: string): Promise<void> {
  await rm(join(work, "staged"), { recursive: true, force: true });
  await rm(join(work, `${JOURNAL}.tmp`), { force: true });
  await rmdir(work).catch(() => undefined);
}

/**
 * Finishes or rolls back a write a killed process left (D9): a committed journal is carried out, a working folder
 * without one is discarded. Runs before anything else reads the folder. Returns what it did, for a notice.
 */
/** Whether a killed write left something to finish or roll back. */
export function hasInterruptedWrite(out: string): boolean {
  const work = join(out, WORK_DIR);
  return existsSync(join(work, "staged")) || existsSync(join(work, JOURNAL)) || existsSync(join(work, `${JOURNAL}.tmp`));
}

export async function recoverOutput(out: string): Promise<"none" | "completed" | "rolled-back"> {
  const work = join(out, WORK_DIR);
  if (!hasInterruptedWrite(out)) {
    // A kill between clearing a write's files and removing its folder leaves the folder empty: it goes now (a
    // folder that holds a lock is not empty, and stays).
    await rmdir(work).catch(() => undefined);
    return "none";
  }
  let journal: Journal | null = null;
  try {
    const text = readIfFile(join(work, JOURNAL));
    journal = text === undefined ? null : (JSON.parse(text) as Journal);
  } catch {
    journal = null;
  }
  try {
    if (journal?.version === 1) {
      await applyJournal(out, journal);
      return "completed";
    }
    await clearWork(work);
    return "rolled-back";
  } catch (err) {
    // One line that says what to do: the journal cannot be carried out as it is (issue 24: every later run failed
    // here, with a good spec too, and said nothing of a way out).
    throw new OutputError(
      `cannot finish the interrupted write in ${out} (${osReason(err)}): fix the cause and run again, or remove ${join(out, WORK_DIR)} to keep the folder as it is now and regenerate`,
    );
  }
}

/**
 * Plans a write against the folder as it is now (after recovery); `known` spares reading the files a record vouches
 * for, and `seen` collects the status of each file read while the run held its bytes (render/record.ts).
 */
export function planOutput(out: string, files: readonly GeneratedFile[], options: { force?: boolean; known?: KnownHashes; seen?: Map<string, BigIntStats> } = {}): WritePlan {
  const { seen } = options;
  const disk = seen
    ? (p: string) => {
        const read = readWithStatus(targetOf(out, p));
        if (read?.status) seen.set(p, read.status);
        return read?.text;
      }
    : (p: string) => readIfFile(targetOf(out, p));
  return planWrite(files, readPreviousManifest(out), disk, options);
}

/** Carries a plan out through the journal. Every OS failure becomes an `OutputError` with the OS's reason. */
export async function writeOutput(out: string, plan: WritePlan, written?: Map<string, BigIntStats>): Promise<void> {
  const work = join(out, WORK_DIR);
  try {
    await ensureDir(join(work, "staged"));
  } catch (err) {
    throw new OutputError(`cannot create the output folder ${out}: ${osReason(err)}`);
  }
  // Before the commit point: every folder a file goes into is made (or found to be a folder) and every name is one
  // the file system takes, so that nothing after the commit fails on a name (issue 24: ENAMETOOLONG after 31 files
  // had been replaced, and ENOTDIR where a user's file stood in for a new area's folder).
  const made: string[] = [];
  try {
    await prepareTargets(out, plan, made);
  } catch (err) {
    for (const d of made.reverse()) await rmdir(d).catch(() => undefined);
    await clearWork(work);
    if (err instanceof OutputError) throw err;
    throw new OutputError(`cannot write into ${out}: ${osReason(err)}`);
  }
  try {
    const journal: Journal = { version: 1, writes: plan.writes.map((w, i) => ({ staged: String(i), path: w.path })), removes: plan.removes };
    await eachBounded([...plan.writes.keys()], WIDTH, (i) => writeFile(join(work, "staged", String(i)), plan.writes[i]?.contents ?? "", "utf8"));
    // The commit point: a rename is atomic, so the journal is there whole or not at all.
    await writeFile(join(work, `${JOURNAL}.tmp`), JSON.stringify(journal), "utf8");
    await rename(join(work, `${JOURNAL}.tmp`), join(work, JOURNAL));
    await applyJournal(out, journal, written);
  } catch (err) {
    if (err instanceof OutputError) throw err;
    throw new OutputError(`cannot write into ${out}: ${osReason(err)}`);
  }
}

/** The longest file or folder name, in bytes, that the common file systems take (ext4, APFS, NTFS: 255). */
const MAX_NAME_BYTES = 255;

/** Makes the folders of every planned file and checks every name, recording the folders it made. */
async function prepareTargets(out: string, plan: WritePlan, made: string[]): Promise<void> {
  const dirs = new Set<string>();
  for (const w of plan.writes) {
    const target = targetOf(out, w.path);
    for (const part of w.path.split("/")) {
      if (Buffer.byteLength(part, "utf8") > MAX_NAME_BYTES) {
        throw new OutputError(`cannot write ${w.path} into ${out}: the name ${part.slice(0, 40)}… is longer than ${MAX_NAME_BYTES} bytes; nothing was changed`);
      }
    }
    dirs.add(dirname(target));
    try {
      if (statSync(target).isDirectory()) throw new OutputError(`cannot write ${w.path} into ${out}: a folder is in its place; nothing was changed`);
    } catch (err) {
      if (err instanceof OutputError) throw err;
    }
  }
  for (const dir of [...dirs].sort()) {
    const missing: string[] = [];
    for (let d = dir; !existsSync(d) && dirname(d) !== d; d = dirname(d)) missing.push(d);
    try {
      await ensureDir(dir);
    } catch (err) {
      throw new OutputError(`cannot make the folder ${relative(out, dir) || "."} in ${out}: ${osReason(err)}; nothing was changed`);
    }
    pushAll(made, missing.reverse());
  }
}

export interface CheckReport {
  stale: string[];
  missing: string[];
  extra: string[];
  /** In the folder, but neither generated nor listed by the last manifest: reported, never a failure. */
  untracked: string[];
}

/**
 * Compares what a run would write with what is on disk, byte for byte; writes nothing (after finishing an
 * interrupted write, D9). A folder holding no generated file is listed once, as `dir/`.
 */
export async function checkOutput(out: string, files: readonly GeneratedFile[]): Promise<CheckReport> {
  const report: CheckReport = { stale: [], missing: [], extra: [], untracked: [] };
  const previous = readPreviousManifest(out);
  const known = new Set<string>();
  for (const f of files) {
    known.add(f.path);
    const current = readIfFile(targetOf(out, f.path));
    if (current === undefined) report.missing.push(f.path);
    else if (f.userOwned) report.untracked.push(f.path);
    else if (current !== f.contents) report.stale.push(f.path);
  }
  for (const path of Object.keys(previous?.files ?? {})) {
    if (known.has(path)) continue;
    known.add(path);
    if (readIfFile(targetOf(out, path)) !== undefined) report.extra.push(path);
  }
  const knownDirs = new Set<string>();
  for (const p of known) for (let d = p; d.includes("/"); ) knownDirs.add((d = d.slice(0, d.lastIndexOf("/"))));
  const walk = async (rel: string): Promise<void> => {
    let entries: import("node:fs").Dirent[];
    try {
      entries = await readdir(rel ? join(out, rel) : out, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (!rel && e.name === WORK_DIR) continue;
      const isDir = e.isDirectory() || (e.isSymbolicLink() && lstatSafeDir(join(out, path)));
      if (isDir) {
        if (knownDirs.has(path)) await walk(path);
        else report.untracked.push(`${path}/`);
      } else if (!known.has(path)) report.untracked.push(path);
    }
  };
  await walk("");
  for (const list of Object.values(report)) list.sort();
  return report;
}

function lstatSafeDir(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink() && statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The bytes of a generated file as the disk has them; for the CLI's drift report of seeds. */
export async function readOutputFile(out: string, path: string): Promise<string | undefined> {
  try {
    return await readFile(targetOf(out, path), "utf8");
  } catch {
    return undefined;
  }
}
