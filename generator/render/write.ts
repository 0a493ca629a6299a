import { existsSync } from "node:fs";
import { mkdir, readFile, readdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import type { GeneratedFile } from "../emit/files.js";

/**
 * The one module that writes the output folder. A run writes everything into a fresh sibling folder and swaps
 * it in with two renames, so that a failed run (or a crash half-way) leaves the previous output as it was.
 */

async function listFiles(root: string): Promise<string[]> {
  if (!existsSync(root)) return [];
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) out.push(relative(root, full).split(sep).join("/"));
    }
  };
  await walk(root);
  return out.sort();
}

export interface WriteOptions {
  /** Files under the output folder that belong to the user: carried into the new output when not generated. */
  userOwned?: (path: string) => boolean;
}

export async function writeOutput(outDir: string, files: GeneratedFile[], options: WriteOptions = {}): Promise<void> {
  const stamp = `${process.pid}-${Date.now().toString(36)}`;
  const tmp = `${outDir}.tmp-${stamp}`;
  const old = `${outDir}.old-${stamp}`;
  await rm(tmp, { recursive: true, force: true });
  try {
    for (const f of files) {
      const target = join(tmp, ...f.path.split("/"));
      await mkdir(dirname(target), { recursive: true });
      const existing = join(outDir, ...f.path.split("/"));
      // A user-owned file is written only when absent; the user's copy moves into the new output as it is.
      if (f.userOwned && existsSync(existing)) await writeFile(target, await readFile(existing));
      else await writeFile(target, f.contents, "utf8");
    }
    if (options.userOwned) {
      const generated = new Set(files.map((f) => f.path));
      for (const path of await listFiles(outDir)) {
        if (generated.has(path) || !options.userOwned(path)) continue;
        const target = join(tmp, ...path.split("/"));
        await mkdir(dirname(target), { recursive: true });
        await writeFile(target, await readFile(join(outDir, ...path.split("/"))));
      }
    }
    await mkdir(tmp, { recursive: true });
    const hadOutput = existsSync(outDir);
    if (hadOutput) await rename(outDir, old);
    try {
      await rename(tmp, outDir);
    } catch (err) {
      if (hadOutput) await rename(old, outDir);
      throw err;
    }
    if (hadOutput) await rm(old, { recursive: true, force: true });
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

export interface CheckReport {
  stale: string[];
  missing: string[];
  extra: string[];
}

/** Compares what a run would write with what is on disk, byte for byte; writes nothing. */
export async function checkOutput(outDir: string, files: GeneratedFile[], options: WriteOptions = {}): Promise<CheckReport> {
  const report: CheckReport = { stale: [], missing: [], extra: [] };
  const onDisk = new Set(await listFiles(outDir));
  for (const f of files) {
    const full = join(outDir, ...f.path.split("/"));
    if (!onDisk.has(f.path)) report.missing.push(f.path);
    else if (!f.userOwned && (await readFile(full, "utf8")) !== f.contents) report.stale.push(f.path);
  }
  const generated = new Set(files.map((f) => f.path));
  for (const path of onDisk) if (!generated.has(path) && !options.userOwned?.(path)) report.extra.push(path);
  return report;
}
