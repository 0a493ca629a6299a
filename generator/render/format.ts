import { Worker } from "node:worker_threads";
import type { GeneratedFile } from "../emit/files.js";
import { PRINT_WIDTH } from "../emit/ts/layout.js";

/**
 * Formats generated code with prettier, pinned to an exact version and called with explicit options so that the
 * output does not depend on any prettier config around the output folder. Loaded lazily: runs that emit no code
 * (lint) do not pay for it.
 */
export const PRETTIER_OPTIONS = {
  printWidth: PRINT_WIDTH,
  tabWidth: 2,
  useTabs: false,
  semi: true,
  singleQuote: false,
  quoteProps: "as-needed",
  trailingComma: "all",
  bracketSpacing: true,
  arrowParens: "always",
  endOfLine: "lf",
  proseWrap: "preserve",
} as const;

function parserFor(path: string): string | null {
  // babel-ts prints the same declarations as the typescript parser and loads and runs about a third faster.
  if (path.endsWith(".ts")) return "babel-ts";
  if (path.endsWith(".js") || path.endsWith(".mjs")) return "babel";
  return null;
}

export async function formatFiles(files: GeneratedFile[]): Promise<GeneratedFile[]> {
  const prettier = await import("prettier");
  return Promise.all(
    files.map(async (f) => {
      const parser = f.raw ? null : parserFor(f.path);
      if (!parser) return f;
      return { ...f, contents: await prettier.format(f.contents, { ...PRETTIER_OPTIONS, parser }) };
    }),
  );
}

export type Formatter = (files: GeneratedFile[]) => Promise<GeneratedFile[]>;

/**
 * A formatter on a worker thread: prettier loads and warms up while the main thread reads the spec, then formats
 * the generated code while the main thread emits the OpenAPI documents. (Two workers were measured slower on two
 * cores: both compete with the main thread while it reads the spec.)
 */
export function workerFormatter(): { format: Formatter; close: () => Promise<void> } {
  const worker = new Worker(new URL("./format-worker.js", import.meta.url));
  worker.unref();
  let next = 0;
  const pending = new Map<number, { resolve: (f: GeneratedFile[]) => void; reject: (e: Error) => void }>();
  worker.on("message", (msg: { id: number; files?: GeneratedFile[]; error?: string }) => {
    const job = pending.get(msg.id);
    pending.delete(msg.id);
    if (pending.size === 0) worker.unref();
    if (msg.error !== undefined) job?.reject(new Error(msg.error));
    else job?.resolve(msg.files ?? []);
  });
  worker.on("error", (err) => {
    for (const job of pending.values()) job.reject(err);
    pending.clear();
  });
  const format: Formatter = (files) =>
    new Promise((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, files });
    });
  return { format, close: () => worker.terminate().then(() => undefined) };
}
