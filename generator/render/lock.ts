import { randomBytes } from "node:crypto";
import { statSync } from "node:fs";
import { link, mkdir, open, readFile, readdir, rmdir, unlink, utimes } from "node:fs/promises";
import { hostname } from "node:os";
import { dirname, join } from "node:path";

/**
 * One run at a time in an output folder (issue 24: `--watch` beside a manual run, or two build steps sharing an
 * output, left folders mixed from both specs). A run holds `<out>/.collab-rest-codegen/lock` while it recovers,
 * plans, writes or checks; the file is made with an exclusive create, so exactly one of several runs makes it.
 *
 * It records the host, process id, start time and a nonce, and its modification time is a heartbeat. A lock is
 * stale when its heartbeat is older than `staleMs`, or when its host is this one and its process is gone. Taking a
 * stale lock over goes through a second exclusive file (`lock.takeover`), so that of several runs that find it
 * stale one judges it again, with the lock's content in hand, and removes it; a run releases a lock only while it
 * is still its own. Written by hand: the lock libraries on npm (proper-lockfile and others) lock with mkdir and
 * an mtime only, without the host and process check that tells a dead run on this machine from a slow one.
 */

export const LOCK_DIR = ".collab-rest-codegen";
const LOCK = "lock";
const TAKEOVER = "lock.takeover";

export interface LockInfo {
  host: string;
  pid: number;
  started: string;
  nonce?: string;
}

export interface OutputLock {
  release(): Promise<void>;
}

export interface LockOptions {
  /** How long to wait for another run before giving up. Default 30 s. */
  waitMs?: number;
  /** A heartbeat older than this makes a lock stale. Default 60 s. */
  staleMs?: number;
  /** How often the holder refreshes its heartbeat. Default 5 s. */
  beatMs?: number;
  /** Told once when the run starts waiting. */
  onWait?: (holder: LockInfo | null) => void;
  /** Told before each pause between tries, with its length in ms (a test uses it to act while the run sleeps). */
  onPause?: (ms: number) => void;
}

/** Another run holds the output folder past the wait, or the folder cannot hold a lock: exit 3 in the CLI. */
export class LockError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return null;
  }
}

function parseHolder(text: string | null): LockInfo | null {
  if (text === null) return null;
  try {
    const raw = JSON.parse(text) as Partial<LockInfo>;
    if (typeof raw.host === "string" && typeof raw.pid === "number" && typeof raw.started === "string") return raw as LockInfo;
  } catch {
    // Being written, or not ours: judged by its age alone.
  }
  return null;
}

function ageOf(path: string): number | null {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

/** A lock whose text names no holder this long after it was made is a leftover: runs write their lock whole. */
const UNREADABLE_GRACE_MS = 5_000;

/**
 * Stale: a heartbeat older than the bound (a run that stopped beating, or a process id reused), a dead process here,
 * or a lock with no holder in it past a short grace (an empty lock left by a version that wrote its lock after
 * creating it, killed in between).
 */
function isStale(age: number, holder: LockInfo | null, staleMs: number): boolean {
  if (age > staleMs) return true;
  if (holder === null) return age > UNREADABLE_GRACE_MS;
  return holder !== null && holder.host === hostname() && !alive(holder.pid);
}

function errnoOf(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

/**
 * `mkdir -p` one level at a time, returning the folders it made, deepest first. Node's recursive mkdir retries for
 * ever when the kernel answers ENOENT for a child of a folder that exists (`/proc/x`, issue 9); here that is an error.
 */
async function makeFolders(path: string): Promise<string[]> {
  const missing: string[] = [];
  for (let d = path; ; d = dirname(d)) {
    try {
      if (statSync(d).isDirectory()) break;
      throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${d}'`), { code: "ENOTDIR" });
    } catch (err) {
      if (errnoOf(err) !== "ENOENT") throw err;
    }
    missing.push(d);
    if (dirname(d) === d) break;
  }
  for (const d of [...missing].reverse()) {
    try {
      await mkdir(d);
    } catch (err) {
      if (errnoOf(err) !== "EEXIST") throw err;
    }
  }
  return missing;
}

/** The prefix of a run's own draft of a lock file: `lock.<host>.<pid>.<random>.draft`. */
const draftPrefix = (path: string) => `${path}.${hostname().replace(/[^A-Za-z0-9_-]/g, "_")}.`;

/**
 * Creates `path` with `text` if no file is there; false when one is. The text is written first under a name of this
 * run's own and the file appears whole, with one hard link that fails when a file is there: a run killed between
 * creating a lock and writing it would otherwise leave an empty one, which no run can judge by its holder, and every
 * later run would wait for its heartbeat to go stale (CI saw `generate --check` exit 3 after a SIGKILL). A folder
 * that takes no hard links falls back to an exclusive create.
 */
async function createExclusive(path: string, text: string): Promise<boolean> {
  const draft = `${draftPrefix(path)}${process.pid}.${randomBytes(4).toString("hex")}.draft`;
  await writeNew(draft, text);
  try {
    await link(draft, path);
    return true;
  } catch (err) {
    if (errnoOf(err) === "EEXIST") return false;
    if (!["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EXDEV"].includes(errnoOf(err) ?? "")) throw err;
  } finally {
    await unlink(draft).catch(() => undefined);
  }
  try {
    await writeNew(path, text);
    return true;
  } catch (err) {
    if (errnoOf(err) === "EEXIST") return false;
    throw err;
  }
}

/** Creates `path` with `text`; EEXIST when a file is there. */
async function writeNew(path: string, text: string): Promise<void> {
  const handle = await open(path, "wx");
  try {
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
}

/** Drafts left by runs on this host that were killed before they removed them: their process is gone. */
async function removeDeadDrafts(dir: string, path: string): Promise<void> {
  const prefix = draftPrefix(path).slice(dir.length + 1);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith(".draft")) continue;
    const pid = Number(name.slice(prefix.length).split(".")[0]);
    if (Number.isInteger(pid) && pid !== process.pid && !alive(pid)) await unlink(join(dir, name)).catch(() => undefined);
  }
}

/**
 * Removes the lock at `path` if it is still the stale one judged from `seen`: under the takeover file, so that no
 * other run judges it at the same time, and after reading it again, so that a fresh lock made meanwhile stays.
 */
async function takeOver(dir: string, path: string, seen: string | null, staleMs: number): Promise<void> {
  const takeover = join(dir, TAKEOVER);
  // A takeover file left by a run killed in the middle of one is itself stale after a short while.
  const takeoverAge = ageOf(takeover);
  if (takeoverAge !== null && takeoverAge > 10_000) await unlink(takeover).catch(() => undefined);
  if (!(await createExclusive(takeover, String(process.pid)))) return;
  try {
    const now = await readText(path);
    const age = ageOf(path);
    if (now === seen && age !== null && isStale(age, parseHolder(now), staleMs)) await unlink(path).catch(() => undefined);
  } finally {
    await unlink(takeover).catch(() => undefined);
  }
}

/**
 * Takes the lock of `out` (making `out/.collab-rest-codegen/` when absent), waiting at most `waitMs` for another
 * run. Throws `LockError` with "another run is writing into OUT" when the wait runs out.
 */
export async function lockOutput(out: string, options: LockOptions = {}): Promise<OutputLock> {
  const waitMs = options.waitMs ?? 30_000;
  const staleMs = options.staleMs ?? 60_000;
  const beatMs = options.beatMs ?? 5_000;
  const dir = join(out, LOCK_DIR);
  const path = join(dir, LOCK);
  const info: LockInfo = { host: hostname(), pid: process.pid, started: new Date().toISOString(), nonce: randomBytes(8).toString("hex") };
  const mine = JSON.stringify(info);
  const deadline = Date.now() + waitMs;
  let told = false;
  let pause = 25;
  // The folders the lock made: a run that writes nothing (a spec error, `--check`) leaves no empty folder behind.
  const made: string[] = [];
  let vanished = 0;
  for (;;) {
    try {
      for (const d of await makeFolders(dir)) if (!made.includes(d)) made.push(d);
      if (await createExclusive(path, mine)) break;
    } catch (err) {
      // The holder that just released removed the folders it had made: make them again and try once more (a
      // folder the kernel will not make, such as one under /proc, answers ENOENT every time: an error after a few).
      if (errnoOf(err) === "ENOENT" && ++vanished < 5) continue;
      const e = err as NodeJS.ErrnoException;
      throw new LockError(`cannot create the output folder ${out}: ${e.code ?? "Error"}: ${String(e.message).replace(/^\w+: /, "").replace(/, \w+ '.*'$/, "")}`, e.code);
    }
    const seen = await readText(path);
    const age = ageOf(path);
    if (seen !== null && age !== null && isStale(age, parseHolder(seen), staleMs)) {
      await takeOver(dir, path, seen, staleMs);
      continue;
    }
    if (Date.now() >= deadline) {
      const holder = parseHolder(seen);
      const who = holder ? ` (process ${holder.pid} on ${holder.host}, since ${holder.started})` : "";
      throw new LockError(`another run is writing into ${out}${who}; wait for it, or remove ${path} if no run is under way`);
    }
    if (!told) options.onWait?.(parseHolder(seen));
    told = true;
    options.onPause?.(pause);
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(500, pause * 2);
  }
  await removeDeadDrafts(dir, path);
  const beat = setInterval(() => {
    const t = new Date();
    utimes(path, t, t).catch(() => undefined);
  }, beatMs);
  beat.unref();
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      clearInterval(beat);
      // Only its own lock: a lock taken over as stale (a run paused past the bound) is another run's now.
      if ((await readText(path)) === mine) await unlink(path).catch(() => undefined);
      // The working folder goes with the lock when nothing else is in it (a journal, staged files), and so does an
      // output folder the lock made when the run wrote nothing into it.
      await rmdir(dir).catch(() => undefined);
      for (const d of made) await rmdir(d).catch(() => undefined);
    },
  };
}
