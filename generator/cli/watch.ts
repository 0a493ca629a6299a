import { type FSWatcher, readFileSync, readdirSync, statSync, watch } from "node:fs";
import { basename, dirname, join } from "node:path";
import { GENERATOR_NAME } from "../options.js";
import { sha256 } from "../util/hash.js";
import { skippedFolder } from "./folders.js";

/**
 * `generate --watch`: runs once, then again after every change of the spec, until SIGINT or SIGTERM.
 *
 * It watches the spec's folder, not the file: a save that writes a temporary file and renames it over the spec
 * (`sed -i`, editors' safe write, `git checkout`) replaces the inode, and a watch on the old inode goes quiet
 * (issue 9). Events are debounced; a run that is under way finishes before the next starts; a save that leaves
 * the bytes as they were, or a moment when the file is gone (delete, then create), runs nothing.
 *
 * A folder input (the platform's reference) is watched whole, recursively: a change of any of its Markdown pages
 * runs again, once the hash of every page's path and bytes differs.
 */
export function watchSpec(spec: string, shownPath: string, run: () => Promise<number>, debounceMs = 150): Promise<number> {
  const isFolder = (() => {
    try {
      return statSync(spec).isDirectory();
    } catch {
      return false;
    }
  })();
  const folder = isFolder ? spec : dirname(spec);
  const name = basename(spec);
  let lastHash: string | null = null;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  let again = false;
  let watcher: FSWatcher | null = null;
  let stopped = false;

  const specHash = (): string | null => {
    try {
      return isFolder ? sha256(folderText(spec)) : sha256(readFileSync(spec, "utf8"));
    } catch {
      return null;
    }
  };
  const runIfChanged = async (): Promise<void> => {
    const hash = specHash();
    if (hash === null || hash === lastHash) return;
    lastHash = hash;
    await run();
  };
  const trigger = (): void => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      if (running) {
        again = true;
        return;
      }
      running = runIfChanged().finally(() => {
        running = null;
        if (again) {
          again = false;
          trigger();
        }
      });
    }, debounceMs);
  };
  const start = (): void => {
    if (stopped) return;
    try {
      watcher = isFolder
        ? watch(folder, { recursive: true }, (_event, file) => {
            if (file === null || file.endsWith(".md")) trigger();
          })
        : watch(folder, (_event, file) => {
            if (file === null || file === name) trigger();
          });
      // The folder itself was removed or replaced: watch it again once it is back.
      watcher.on("error", () => {
        watcher?.close();
        setTimeout(start, 200);
      });
    } catch {
      setTimeout(start, 200);
    }
  };

  return new Promise((resolveExit) => {
    const stop = (signal: NodeJS.Signals): void => {
      if (stopped) return;
      stopped = true;
      if (timer) clearTimeout(timer);
      watcher?.close();
      const why = signal === "SIGHUP" ? "the parent process exited" : signal;
      process.stderr.write(`${GENERATOR_NAME}: ${why}, stopped watching\n`);
      void Promise.resolve(running).then(() => resolveExit(0));
    };
    // Each handler names its own signal: the listener's argument is absent when the signal is emitted in-process.
    process.once("SIGINT", () => stop("SIGINT"));
    process.once("SIGTERM", () => stop("SIGTERM"));
    // `npx`/`npm run` do not pass a SIGTERM sent to npm on to this process: npm exits and leaves it to init. A
    // watcher whose parent is gone stops too, rather than running on unseen.
    const parent = process.ppid;
    const orphaned = setInterval(() => {
      if (process.ppid !== parent) stop("SIGHUP");
    }, 500);
    orphaned.unref();
    // The watch is armed before the first run: a save made while it runs, or right after it reports, is seen (the
    // debounce waits for the run, and the run after it reads the new bytes). Armed after it, such a save was lost
    // until the next one (CI saw a --watch test wait past its bound).
    start();
    running = runIfChanged().finally(() => {
      running = null;
      process.stderr.write(`${GENERATOR_NAME}: watching ${shownPath}\n`);
      if (again) {
        again = false;
        trigger();
      }
    });
  });
}

/** Every Markdown page under `dir`, path and bytes, in path order: what a folder input's runs read. */
function folderText(dir: string): string {
  const parts: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const full = join(d, e.name);
      // The folders the reading skips (cli/main.ts readFolder): a change there runs nothing.
      if (e.isDirectory()) {
        if (!skippedFolder(e.name)) walk(full);
      } else if (e.name.endsWith(".md")) parts.push(full, "\0", readFileSync(full, "utf8"), "\0");
    }
  };
  walk(dir);
  return parts.join("");
}
