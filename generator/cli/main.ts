#!/usr/bin/env node
import { spawnSync } from "node:child_process";
import { type BigIntStats, existsSync, readFileSync, readdirSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { Command, CommanderError, Option } from "commander";
import { type Diagnostic, diagnostic, hasErrors, sortDiagnostics } from "../diagnostics/catalogue.js";
import { type DiagnosticFormat, type FormatOptions, formatDiagnostics, summarizeDiagnostics } from "../diagnostics/format.js";
import type { DiffFormat } from "../diff/format.js";
import type { Previous } from "../diff/version.js";
import { type Severity, severityAtLeast } from "../diff/rules.js";
import { TemplateError } from "../emit/templates.js";
import { skeletonMethodNames } from "../model/questions.js";
import { view } from "../model/view.js";
import { SKELETON_PATH, skeletonDrift } from "../skeleton/index.js";
import type { GeneratedFile, PackageMetadata } from "../emit/files.js";
import { buildFromSource, buildFromText, generateSource } from "../generate.js";
import type { FragmentCache, InputSource } from "../source/index.js";
import { DEFAULT_PACKAGES, GENERATOR_NAME } from "../options.js";
import { type Formatter, workerFormatter } from "../render/format.js";
import { LockError, lockOutput } from "../render/lock.js";
import { type WritePlan, parseManifest } from "../render/plan.js";
import { type WriteRecord, generatedHashes, heldAfterWrite, loadWriteRecord, saveWriteRecord } from "../render/record.js";
import { OutputError, WORK_DIR, hasInterruptedWrite, checkOutput, planOutput, preflightOutput, readIfFile, readOutputFile, readPreviousManifest, recoverOutput, writeOutput } from "../render/write.js";
import { redactSecrets } from "../util/redact.js";
import { nearest } from "../util/distance.js";
import { type CliConfig, ConfigError, DEFAULT_CONFIG, DEFAULT_CONFIG_FILE, type IgnoreRule, parseConfig } from "./config.js";
import { loadRuntime } from "./runtime.js";
import { type TemplateSet, builtInTemplatesDir, loadTemplateSet } from "./templates.js";
import { generatorVersion } from "./version.js";
import { CACHE_FILE, PRINT_CACHE_FILE, loadCache, saveCache } from "./cache.js";
import { skippedFolder } from "./folders.js";

/**
 * The command line of docs/contracts.md. Exit codes: 0 done or up to date, 1 `--check` found differences,
 * 2 the spec has errors (or warnings under `--fail-on-warnings`; nothing written), 3 usage error or a bug.
 */

export const EXIT = { ok: 0, stale: 1, failOn: 1, specErrors: 2, usage: 3 } as const;

class UsageError extends Error {}


interface Resolved {
  /** Absolute paths. */
  spec: string;
  out: string;
  templates: string | null;
  config: string | null;
  /** The spec's path as written into outputs: relative to the config's folder, `/` separators. */
  specDisplay: string;
  version: string | undefined;
  /** The handler skeleton, relative to the output folder (`/` separators; `../` when the config puts it outside). */
  skeletonPath: string;
  ignore: IgnoreRule[];
  failOnWarnings: boolean;
  force: boolean;
  v3ErrorPrefix: "spec" | "platform";
  packages: { types: string; client: string; server: string };
  /** `--previous FILE|git:REV`: an earlier `model.json` to version against, for output folders that are not kept. */
  previous: string | null;
  /** How long a run waits for another that holds the output folder's lock, in ms. */
  lockWaitMs: number;
  breakingWhileZero: "minor" | "major";
  legacyGet: boolean;
  packageMetadata?: PackageMetadata;
  /** The folder of the reference reading's cache (the config's `cache`), absolute; null without one. */
  cache: string | null;
  /** The platform's reference beside the spec (`--docs`, the config's `docs`), absolute; null without one. */
  docs: string | null;
  /** The output as it was when a `--watch` session began: the base of every run of the session (D22). */
  sessionBase?: Previous | null;
}

interface CommonOptions {
  spec?: string;
  docs?: string;
  out?: string;
  config?: string;
  templates?: string;
  force?: boolean;
  failOnWarnings?: boolean;
  previous?: string;
  lockWait?: string;
}

/** A path as the user's shell sees it: relative to the working directory, `/` separators. */
function shown(path: string): string {
  return relative(process.cwd(), path).split(sep).join("/") || ".";
}

function loadConfig(configPath: string | undefined, cwd: string): { config: CliConfig; base: string; path: string | null } {
  const path = configPath ? resolve(cwd, configPath) : resolve(cwd, DEFAULT_CONFIG_FILE);
  if (!existsSync(path)) {
    if (configPath) throw new UsageError(`config file not found: ${configPath}`);
    return { config: DEFAULT_CONFIG, base: cwd, path: null };
  }
  try {
    return { config: parseConfig(readFileSync(path, "utf8"), shown(path)), base: dirname(path), path };
  } catch (err) {
    if (err instanceof ConfigError) throw new UsageError(err.message);
    throw err;
  }
}

/** " (did you mean 'x'?)" for a path that does not exist, when a file of a near name lies in the same folder. */
function didYouMean(path: string): string {
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return "";
  }
  const near = nearest(basename(path), names, Math.max(2, Math.floor(basename(path).length / 4)));
  return near ? `; did you mean '${shown(join(dirname(path), near))}'?` : "";
}

function resolveOptions(opts: CommonOptions, cwd: string): Resolved {
  const { config, base, path: configFile } = loadConfig(opts.config, cwd);
  const spec = opts.spec ? resolve(cwd, opts.spec) : resolve(base, config.spec);
  const out = opts.out ? resolve(cwd, opts.out) : resolve(base, config.out);
  if (!existsSync(spec) || !(statSync(spec).isFile() || statSync(spec).isDirectory())) {
    // A path from the config is the config's mistake: its file, line and column, where the key stands (issue 25).
    const at = !opts.spec && configFile ? config.positions.spec : undefined;
    const where = at && configFile ? `${shown(configFile)}:${at.line}:${at.column}: ` : "";
    throw new UsageError(`${where}spec file not found: ${opts.spec ?? config.spec}${didYouMean(spec)}`);
  }
  const templatesArg = opts.templates ?? config.templates;
  const templates = templatesArg ? resolve(opts.templates ? cwd : base, templatesArg) : null;
  if (templates && !existsSync(templates)) throw new UsageError(`templates folder not found: ${templatesArg}`);
  const rel = relative(base, spec);
  const specDisplay = (rel.startsWith("..") ? relative(cwd, spec) : rel).split(sep).join("/");
  const skeletonPath = config.skeleton ? relative(out, resolve(base, config.skeleton)).split(sep).join("/") : SKELETON_PATH;
  return {
    spec,
    out,
    templates,
    config: configFile,
    specDisplay,
    version: config.version,
    skeletonPath,
    ignore: config.ignore,
    failOnWarnings: Boolean(opts.failOnWarnings) || config.failOnWarnings,
    force: Boolean(opts.force),
    v3ErrorPrefix: config.v3ErrorPrefix,
    packages: { ...DEFAULT_PACKAGES, ...config.packages },
    previous: opts.previous ?? null,
    lockWaitMs: lockWaitOf(opts.lockWait),
    breakingWhileZero: config.breakingWhileZero,
    legacyGet: config.legacyGet,
    cache: config.cache ? resolve(base, config.cache) : null,
    docs: docsOf(opts.docs, cwd, config.docs, base),
    ...(config.packageMetadata ? { packageMetadata: config.packageMetadata } : {}),
  };
}

/** `--docs` over the config's `docs`; an empty `--docs ""` is a mistake to say, not a flag to drop. */
function docsOf(flag: string | undefined, cwd: string, configured: string | undefined, base: string): string | null {
  if (flag !== undefined && flag.trim() === "") throw new UsageError("--docs: the path is empty; name the reference's folder");
  return flag ? resolve(cwd, flag) : configured ? resolve(base, configured) : null;
}

function lockWaitOf(text: string | undefined): number {
  if (text === undefined) return 30_000;
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds < 0) throw new UsageError(`--lock-wait takes a number of seconds, not '${text}'`);
  return Math.round(seconds * 1000);
}

/** The repository root for GitHub annotations: `GITHUB_WORKSPACE`, else git's top level, else the working directory. */
function repositoryRoot(): string {
  if (process.env.GITHUB_WORKSPACE) return process.env.GITHUB_WORKSPACE;
  const git = spawnSync("git", ["rev-parse", "--show-toplevel"], { encoding: "utf8" });
  return git.status === 0 && git.stdout.trim() ? git.stdout.trim() : process.cwd();
}

/** Diagnostics carry the spec's config-relative path (as model.json does); printed paths are the user's (D: paths). */
function printOptions(r: Resolved, format: DiagnosticFormat): FormatOptions {
  const root = format === "github" ? repositoryRoot() : process.cwd();
  const abs = (file: string) => (file === r.specDisplay ? r.spec : resolve(file));
  const docs = join(dirname(builtInTemplatesDir()), "spec-source", "README.md");
  return {
    path: (file) => relative(root, abs(file)).split(sep).join("/"),
    absolute: abs,
    docs: relative(process.cwd(), docs).split(sep).join("/"),
  };
}

function print(diagnostics: Diagnostic[], format: DiagnosticFormat, options: FormatOptions): void {
  const text = formatDiagnostics(diagnostics, format, options);
  if (format === "json" || text) process.stdout.write(text || "[]\n");
}

/**
 * The input of a run: the spec file, or a folder laid out like the platform's reference (`api-reference/…`, every
 * `.md` file under it, in path order). Paths are the config-relative ones every position and message shows.
 */
function readSpecSource(r: Resolved): { source: InputSource; docs?: InputSource } | { error: Diagnostic } {
  if (!statSync(r.spec).isDirectory()) {
    const one = readSpecText(r);
    if ("error" in one) return one;
    const source: InputSource = { root: ".", files: [{ path: r.specDisplay, text: one.text }] };
    if (!r.docs) return { source };
    // The reference beside the spec (issue 29): its pages as the config's folder names them.
    const display = relative(r.config ? dirname(r.config) : process.cwd(), r.docs).split(sep).join("/") || ".";
    const docs = readReferenceFolder(r.docs, display, "docs folder", shown(r.docs));
    const cache = loadCache(r.cache);
    return { source, docs: cache ? { ...docs, cache } : docs };
  }
  if (r.docs) throw new UsageError(`--docs goes with a spec file; ${shown(r.spec)} is a folder`);
  const source = readReferenceFolder(r.spec, r.specDisplay, "spec folder", shown(r.spec));
  const cache = loadCache(r.cache);
  return { source: cache ? { ...source, cache } : source };
}

/** Keeps a cache in the config's `cache` folder (cli/cache.ts); a folder that cannot take it is a notice. */
function keepCache(r: Resolved, cache: FragmentCache | undefined | null, file = CACHE_FILE): void {
  const kept = saveCache(r.cache, cache, file);
  if (kept) process.stderr.write(`${GENERATOR_NAME}: notice: the cache was not kept in ${shown(r.cache ?? "")}: ${kept.failed}\n`);
}

/**
 * Every `.md` file under `dir`, in path order, each named `display/<path below dir>`. Hidden folders (`.git`) and
 * `node_modules` are not the reference's, and are not read.
 */
function readFolder(dir: string, display: string): InputSource["files"] {
  const files: InputSource["files"] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const full = join(d, e.name);
      if (e.isDirectory()) {
        if (!skippedFolder(e.name)) walk(full);
      } else if (e.isFile() && e.name.endsWith(".md")) {
        const path = `${display}/${relative(dir, full).split(sep).join("/")}`;
        try {
          files.push({ path, text: new TextDecoder("utf-8", { fatal: true }).decode(readFileSync(full)) });
        } catch (err) {
          const reason = err instanceof TypeError ? "the file is not valid UTF-8" : (err as Error).message;
          throw new UsageError(`${shown(full)}: cannot read: ${reason}`);
        }
      }
    }
  };
  walk(dir);
  return files;
}

/** The files of a folder input, refused unless it is laid out like the platform's reference. */
function referenceSource(files: InputSource["files"], dir: string, display: string): InputSource {
  if (!files.some((f) => f.path.startsWith(`${display}/api-reference/`) && f.path.endsWith(".md"))) throw notLaidOut(dir);
  return { kind: "reference", root: display, files };
}

function notLaidOut(dir: string): UsageError {
  // Folders one level down that are laid out so (a parent of several copies of the reference): named, not guessed.
  let inside: string[] = [];
  try {
    inside = readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, "api-reference")))
      .map((e) => shown(join(dir, e.name)))
      .sort();
  } catch {
    // Not a folder this run can list: the message without the hint.
  }
  const hint = inside.length ? `; ${inside.length === 1 ? "this folder in it is" : `${inside.length} folders in it are`}: ${inside.slice(0, 3).join(", ")}${inside.length > 3 ? ", …" : ""}` : "";
  return new UsageError(`${shown(dir)} is a folder, but not one laid out like the platform's reference: expected Markdown pages under ${shown(join(dir, "api-reference"))}/ (pass the spec file, or the reference's folder${hint})`);
}

/**
 * A folder input read as the platform's reference (`what` names it in messages: "docs folder", "reference folder").
 * The layout is checked before a page is read: a folder without `api-reference/` directly in it (`/tmp`, a parent of
 * several copies) is refused at once, not read whole.
 */
function readReferenceFolder(dir: string, display: string, what: string, given: string): InputSource {
  if (given.trim() === "") throw new UsageError(`${what}: the path is empty; name the reference's folder`);
  if (!existsSync(dir)) throw new UsageError(`${what} not found: ${given}`);
  if (!statSync(dir).isDirectory()) throw new UsageError(`${what} is a file, not a folder: ${given} (expected the reference's folder, laid out as api-reference/<area>/…)`);
  if (!existsSync(join(dir, "api-reference")) || !statSync(join(dir, "api-reference")).isDirectory()) throw notLaidOut(dir);
  return referenceSource(readFolder(dir, display), dir, display);
}

/**
 * The `.md` files of the folder `dir` at git revision `rev` (`diff --from git:REV` of a folder input), named as
 * readFolder names them: one `git ls-tree` and one `git cat-file --batch`, not a process per page.
 */
function gitFolder(arg: string, dir: string, display: string): InputSource["files"] {
  const rev = arg.slice(4);
  if (!rev || rev.startsWith("-")) throw new UsageError(`--from ${arg}: name a revision after git:, such as git:HEAD~1`);
  const inside = spawnSync("git", ["rev-parse", "--is-inside-work-tree"], { cwd: dir, encoding: "utf8" });
  if (inside.status !== 0 || inside.stdout.trim() !== "true") throw new UsageError(`--from ${arg}: ${shown(dir)} is not inside a git work tree`);
  const list = spawnSync("git", ["ls-tree", "-r", "-z", "--name-only", "--full-name", rev, "--", "."], { cwd: dir, encoding: "utf8", maxBuffer: 64 << 20 });
  if (list.status !== 0) throw new UsageError(`--from ${arg}: git cannot list ${shown(dir)} at ${rev}: ${list.stderr.trim().split("\n")[0] ?? ""}`);
  const prefix = spawnSync("git", ["rev-parse", "--show-prefix"], { cwd: dir, encoding: "utf8" }).stdout.trim();
  // The files readFolder reads: no hidden folder's and no node_modules' (the two sides of a diff read alike).
  const paths = list.stdout.split("\0").filter((p) => p.endsWith(".md") && !p.slice(prefix.length).split("/").slice(0, -1).some(skippedFolder));
  const batch = spawnSync("git", ["cat-file", "--batch"], { cwd: dir, input: paths.map((p) => `${rev}:${p}\n`).join(""), maxBuffer: 1 << 30 });
  // A git that failed, or an answer cut at the buffer's bound, reads no page: a short page would be a wrong one.
  if (batch.error || batch.status !== 0) throw new UsageError(`--from ${arg}: git cannot read ${shown(dir)} at ${rev}: ${batch.error?.message ?? batch.stderr.toString().trim().split("\n")[0] ?? ""}`);
  const out = batch.stdout;
  const files: InputSource["files"] = [];
  let at = 0;
  for (const p of paths) {
    const eol = out.indexOf(10, at);
    const header = out.subarray(at, eol).toString("utf8").split(" ");
    const size = Number(header[2]);
    if (header[1] !== "blob" || !Number.isFinite(size) || eol < 0 || eol + 1 + size > out.length) throw new UsageError(`--from ${arg}: git cannot show ${p} at ${rev}`);
    files.push({ path: `${display}/${p.slice(prefix.length)}`, text: out.subarray(eol + 1, eol + 1 + size).toString("utf8") });
    at = eol + 1 + size + 1;
  }
  return files;
}

/** Each line of `text` behind the generator's name, as its other notices are. */
function prefixed(text: string): string {
  return text.replace(/^(?=.)/gm, `${GENERATOR_NAME}: `);
}

function readSpecText(r: Resolved): { text: string } | { error: Diagnostic } {
  if (statSync(r.spec).isDirectory()) throw new UsageError(`${shown(r.spec)} is a folder; this command reads a spec file (generate, lint, mock and diff read the reference's folder)`);
  try {
    const buf = readFileSync(r.spec);
    const text = new TextDecoder("utf-8", { fatal: true }).decode(buf);
    return { text };
  } catch (err) {
    const reason = err instanceof TypeError ? "the file is not valid UTF-8" : (err as Error).message;
    return { error: diagnostic("unreadable-file", { file: r.specDisplay, line: 1, column: 1, endLine: 1, endColumn: 1 }, { reason }) };
  }
}

/** Drops the warnings the config's `ignore` names; reports each rule that silenced nothing, so stale rules get noticed. */
function applyIgnore(diagnostics: Diagnostic[], r: Resolved): Diagnostic[] {
  const used = new Set<IgnoreRule>();
  const kept = diagnostics.filter((d) => {
    if (d.severity !== "warning") return true;
    const rule = r.ignore.find(
      (x) =>
        x.code === d.code &&
        (x.line === undefined || x.line === d.line) &&
        (x.method === undefined || x.method === d.subject?.method) &&
        (x.resource === undefined || x.resource === d.subject?.resource),
    );
    if (rule) used.add(rule);
    return !rule;
  });
  const where = r.config ? shown(r.config) : DEFAULT_CONFIG_FILE;
  for (const rule of r.ignore) {
    if (!used.has(rule)) process.stderr.write(`${where}:${rule.at.line}:${rule.at.column}: notice: this ignore rule (${rule.code}) matched no warning; remove it\n`);
  }
  const silenced = diagnostics.length - kept.length;
  if (silenced > 0) process.stderr.write(`${GENERATOR_NAME}: ${silenced} warning(s) silenced by the config's ignore rules\n`);
  return kept;
}

async function runGenerate(r: Resolved, check: boolean, format: DiagnosticFormat, verbose = false): Promise<number> {
  const templateSet = loadTemplateSet(r.templates);
  // The generator prints its code in its final layout; only what replaced templates render is formatted, by prettier
  // on a worker thread that loads while this one reads the spec. Without replaced templates no prettier loads.
  if (templateSet.custom.length === 0) return runGenerateWith(r, check, format, templateSet, null, verbose);
  const formatter = workerFormatter();
  try {
    return await runGenerateWith(r, check, format, templateSet, formatter.format, verbose);
  } finally {
    await formatter.close();
  }
}

async function runGenerateWith(r: Resolved, check: boolean, format: DiagnosticFormat, templateSet: TemplateSet, formatter: Formatter | null, verbose: boolean): Promise<number> {
  const protect = [{ path: r.spec, what: "spec" }, ...(r.docs ? [{ path: r.docs, what: "docs folder" }] : []), ...(r.config ? [{ path: r.config, what: "config file" }] : [])];
  preflightOutput(r.out, { protect, force: r.force });
  // One run at a time in an output folder, from recovery to the last write (issue 24); `--check` of a folder that
  // does not exist has nothing to recover or compare, and makes no folder.
  if (check && !existsSync(r.out)) return runGenerateLocked(r, check, format, templateSet, formatter, verbose);
  const lock = await lockOutput(r.out, {
    waitMs: r.lockWaitMs,
    onWait: (holder) => process.stderr.write(`${GENERATOR_NAME}: waiting for another run writing into ${shown(r.out)}${holder ? ` (process ${holder.pid})` : ""}\n`),
  }).catch((err: unknown) => {
    // `--check` of a folder this user may read but not write (a read-only CI step) compares without the lock, as
    // long as there is no interrupted write to finish.
    if (err instanceof LockError && check && ["EACCES", "EROFS", "EPERM"].includes(err.code ?? "") && !hasInterruptedWrite(r.out)) return null;
    if (err instanceof LockError) throw new UsageError(err.message.replace(r.out, shown(r.out)));
    throw err;
  });
  try {
    return await runGenerateLocked(r, check, format, templateSet, formatter, verbose);
  } finally {
    await lock?.release();
  }
}

async function runGenerateLocked(r: Resolved, check: boolean, format: DiagnosticFormat, templateSet: TemplateSet, formatter: Formatter | null, verbose: boolean): Promise<number> {
  const started = performance.now();
  const recovered = await recoverOutput(r.out);
  if (recovered !== "none") {
    process.stderr.write(`${GENERATOR_NAME}: ${recovered === "completed" ? "finished" : "rolled back"} a write into ${shown(r.out)} that was interrupted\n`);
  }
  const spec = readSpecSource(r);
  const printing = printOptions(r, format);
  if ("error" in spec) {
    print([spec.error], format, printing);
    return EXIT.specErrors;
  }
  for (const name of templateSet.unknown) {
    process.stderr.write(`${shown(join(r.templates ?? "", ...name.split("/")))}:1:1: warning: no built-in template has this path, so it is not used; see the README's template table\n`);
  }
  const previous = readPreviousGeneration(r);
  const printMemo = loadCache(r.cache, PRINT_CACHE_FILE);
  let result: Awaited<ReturnType<typeof generateSource>>;
  try {
    result = await generateSource(spec.source, {
      specPath: r.specDisplay,
      ...(spec.docs ? { docs: spec.docs } : {}),
      ...(r.version ? { version: r.version } : {}),
      generatorName: GENERATOR_NAME,
      generatorVersion: generatorVersion(),
      templates: templateSet.templates,
      runtime: loadRuntime(),
      skeletonPath: r.skeletonPath,
      v3ErrorPrefix: r.v3ErrorPrefix,
      breakingWhileZero: r.breakingWhileZero,
      legacyGet: r.legacyGet,
      ...(r.packageMetadata ? { packageMetadata: r.packageMetadata } : {}),
      packages: r.packages,
      customTemplates: templateSet.custom,
      ...(previous ? { previous } : {}),
      ...(formatter ? { formatter } : {}),
      ...(printMemo ? { printMemo } : {}),
    });
  } catch (err) {
    if (err instanceof TemplateError) {
      const file = templateSet.origin[err.template] ?? err.template;
      throw new UsageError(`${shown(file)}:${err.line}:${err.column}: error in template: ${err.reason}`);
    }
    // prettier refusing code that custom templates rendered is the templates' mistake, not the generator's.
    if (r.templates && err instanceof Error && /SyntaxError|Unexpected token|Missing semicolon/.test(err.message)) {
      throw new UsageError(`the code rendered from the templates in ${shown(r.templates)} does not parse: ${err.message.split("\n")[0]}`);
    }
    throw err;
  }
  // The readings are the input's, whatever the run decides: the next run skips the pages they cover.
  keepCache(r, spec.source.cache ?? spec.docs?.cache);
  // What the emit stage printed, only when it ran: a run that stopped at an error printed nothing to keep.
  if (result.files.length > 0) keepCache(r, printMemo, PRINT_CACHE_FILE);
  const diagnostics = applyIgnore(result.diagnostics, r);
  print(diagnostics, format, printing);
  if ((spec.source.files.length > 1 || spec.docs) && format !== "json") process.stderr.write(prefixed(summarizeDiagnostics(diagnostics)));
  const failed = hasErrors(diagnostics) || (r.failOnWarnings && diagnostics.length > 0);
  if (failed) {
    const why = hasErrors(diagnostics) ? "the spec has errors" : "the spec has warnings and --fail-on-warnings is on";
    process.stderr.write(`${GENERATOR_NAME}: ${why}; ${shown(r.out)} was not changed\n`);
    return EXIT.specErrors;
  }
  // One model of the spec and the reference (--docs): where its methods come from, and what the pages answered.
  if (result.merge && format !== "json") {
    const { methods, gaps } = result.merge;
    process.stderr.write(`${GENERATOR_NAME}: one model of the spec and the reference: ${methods.spec} methods the spec describes (${methods.both} of them on pages too, the spec's facts standing), ${methods.reference} from the pages; ${gaps.spec - gaps.left} of the spec's ${gaps.spec} "not shown" gaps answered by pages (model.json's knownGaps keeps ${gaps.left})\n`);
  }
  await reportRelease(r, result, verbose);
  const skeleton = await followSkeleton(r, result, check);
  const files = skeleton.files;
  if (check) {
    const report = await checkOutput(r.out, files);
    for (const p of report.untracked) process.stderr.write(`untracked: ${p}\n`);
    const lines = [
      ...report.stale.map((p) => `stale: ${p}`),
      ...skeleton.lacking.map((l) => `stale: ${l.path} (no handlers for ${l.methods.join(", ")}; generate adds them)`),
      ...report.missing.map((p) => `missing: ${p}`),
      ...report.extra.map((p) => `extra: ${p}`),
    ];
    if (lines.length > 0) {
      process.stderr.write(`${lines.join("\n")}\n${GENERATOR_NAME}: output is out of date; run generate\n`);
      return EXIT.stale;
    }
    process.stderr.write(`${GENERATOR_NAME}: ${files.length} files up to date\n`);
    return EXIT.ok;
  }
  // With a cache folder, the record of the last write spares reading the files it vouches for (render/record.ts).
  const record = loadWriteRecord(r.cache, r.out);
  const hashes = r.cache ? generatedHashes(files) : null;
  const seen = new Map<string, BigIntStats>();
  const plan = planOutput(r.out, files, { force: r.force, ...(hashes ? { seen } : {}), ...(record && hashes ? { known: { disk: record.disk, generated: hashes } } : {}) });
  for (const k of plan.kept) {
    const why =
      k.why === "not-generated"
        ? "was not written by collab-rest-codegen; kept. Move it away, or pass --force to replace it"
        : k.why === "edited"
          ? "was edited since the last run; kept. Delete it, or pass --force to replace it"
          : "is no longer generated but was edited; kept. Delete it when you no longer need it";
    process.stderr.write(`${shown(resolve(r.out, k.path))}: warning: ${why}\n`);
  }
  // The packages are published together: a package.json that was edited and kept must not leave the set with two
  // versions, or a dependency on a types version that was never written (issue 25: that exited 0).
  const disagreement = packageSetDisagreement(r.out, files, new Set(plan.kept.map((k) => k.path)));
  if (disagreement) {
    process.stderr.write(`${GENERATOR_NAME}: ${disagreement}; ${shown(r.out)} was not changed. Move the edits into the config's \`package\` key, then delete the edited package.json (or pass --force)\n`);
    return EXIT.usage;
  }
  for (const m of plan.movedSeeds) {
    process.stderr.write(`${shown(resolve(r.out, m.from))}: notice: the skeleton now lives at ${shown(resolve(r.out, m.to))}; this file is yours and stays\n`);
  }
  const written = new Map<string, BigIntStats>();
  await writeOutput(r.out, plan, written);
  if (hashes) keepWriteRecord(r, plan, hashes, record, seen, written);
  const ms = Math.round(performance.now() - started);
  const parts = [`${plan.unchanged} unchanged`, ...(plan.removes.length ? [`${plan.removes.length} removed`] : []), ...(plan.kept.length ? [`${plan.kept.length} kept`] : [])];
  process.stderr.write(`${GENERATOR_NAME}: wrote ${plan.writes.length} files to ${shown(r.out)} (${parts.join(", ")}) in ${ms} ms\n`);
  return EXIT.ok;
}

/** Keeps the record of what this write left (render/record.ts); a folder that cannot take it is a notice. */
function keepWriteRecord(r: Resolved, plan: WritePlan, hashes: ReadonlyMap<string, string>, record: WriteRecord | null, seen: ReadonlyMap<string, BigIntStats>, written: ReadonlyMap<string, BigIntStats>): void {
  const failed = saveWriteRecord(r.cache, r.out, join(r.out, WORK_DIR), heldAfterWrite(plan, hashes, record, seen, written));
  if (failed) process.stderr.write(`${GENERATOR_NAME}: notice: the cache was not kept in ${shown(r.cache ?? "")}: ${failed.failed}\n`);
}

/**
 * The base release a version and a changelog section describe the change from (decisions.md D3, D22), never the
 * number of runs: `--previous FILE|git:REV` when given; else the output folder at git's HEAD when the folder is
 * tracked there; else the output as it was when the run (or the `--watch` session: `r.sessionBase`) began. With the
 * model come the changelogs and the manifest's hashes of the same release.
 */
function readPreviousGeneration(r: Resolved): Previous | null {
  if (!r.previous && trackedAtHead(r.out)) return previousAtHead(r.out);
  if (!r.previous && r.sessionBase !== undefined) return r.sessionBase;
  let modelJson: string | undefined;
  if (r.previous) {
    modelJson = r.previous.startsWith("git:") ? gitShow(r.previous, resolve(r.out, "model.json"), "--previous") : readIfFile(resolve(process.cwd(), r.previous));
    if (modelJson === undefined) throw new UsageError(`--previous ${r.previous}: no such file`);
  } else modelJson = readIfFile(join(r.out, "model.json"));
  if (modelJson === undefined) return null;
  // The changelogs and the manifest of the output folder, where there are any, with either source of the model.
  const changelogs: NonNullable<Previous["changelogs"]> = {};
  for (const kind of ["types", "client", "server"] as const) {
    const text = readIfFile(join(r.out, kind, "CHANGELOG.md"));
    if (text !== undefined) changelogs[kind] = text;
  }
  const manifest = readPreviousManifest(r.out);
  return { modelJson, changelogs, ...(manifest ? { fileHashes: manifest.files } : {}) };
}

/** Why the three package.json files, as they would stand after the write, disagree; null when they agree. */
function packageSetDisagreement(out: string, files: readonly GeneratedFile[], kept: ReadonlySet<string>): string | null {
  const pkgs: Record<string, { name?: string; version?: string; dependencies?: Record<string, string> }> = {};
  for (const kind of ["types", "client", "server"]) {
    const path = `${kind}/package.json`;
    const generated = files.find((f) => f.path === path);
    if (!generated) continue;
    const text = kept.has(path) ? readIfFile(join(out, path)) : generated.contents;
    try {
      pkgs[kind] = JSON.parse(text ?? "{}");
    } catch {
      return `${path} is not valid JSON`;
    }
  }
  const types = pkgs.types;
  const versions = new Set(Object.values(pkgs).map((p) => p.version));
  if (versions.size > 1) return `the packages would have different versions (${Object.entries(pkgs).map(([k, p]) => `${k} ${p.version}`).join(", ")})`;
  for (const kind of ["client", "server"]) {
    const dep = types?.name ? pkgs[kind]?.dependencies?.[types.name] : undefined;
    if (types && pkgs[kind] && dep !== undefined && dep !== types.version) return `${kind}/package.json depends on ${types.name} ${dep}, which is not the version written (${types.version})`;
  }
  return null;
}

/** Whether the output folder's `model.json` is tracked by git at HEAD (the base of D22); false without git. */
function trackedAtHead(out: string): boolean {
  if (!existsSync(out)) return false;
  const r = spawnSync("git", ["cat-file", "-e", "HEAD:./model.json"], { cwd: out, encoding: "utf8" });
  return r.status === 0;
}

/** The release the output folder holds at git's HEAD: its model, changelogs and manifest hashes. */
function previousAtHead(out: string): Previous | null {
  const show = (name: string): string | undefined => {
    const r = spawnSync("git", ["show", `HEAD:./${name}`], { cwd: out, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
    return r.status === 0 ? r.stdout : undefined;
  };
  const modelJson = show("model.json");
  if (modelJson === undefined) return null;
  const changelogs: NonNullable<Previous["changelogs"]> = {};
  for (const kind of ["types", "client", "server"] as const) {
    const text = show(`${kind}/CHANGELOG.md`);
    if (text !== undefined) changelogs[kind] = text;
  }
  const manifest = parseManifest(show("manifest.json"));
  return { modelJson, changelogs, ...(manifest ? { fileHashes: manifest.files } : {}) };
}

/** A file's text at a git revision (`git:REV`), for the file's own path in the work tree; usage errors say why not. */
function gitShow(arg: string, path: string, flag: string): string {
  const rev = arg.slice(4);
  if (!rev || rev.startsWith("-")) throw new UsageError(`${flag} ${arg}: name a revision after git:, such as git:HEAD~1`);
  const cwd = existsSync(dirname(path)) ? dirname(path) : process.cwd();
  const inside = spawnSync("git", ["rev-parse", "--is-inside-work-tree"], { cwd, encoding: "utf8" });
  if (inside.status !== 0 || inside.stdout.trim() !== "true") throw new UsageError(`${flag} ${arg}: ${shown(cwd)} is not inside a git work tree`);
  const name = `./${relative(cwd, path).split(sep).join("/")}`;
  const out = spawnSync("git", ["show", `${rev}:${name}`], { cwd, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  if (out.status !== 0) throw new UsageError(`${flag} ${arg}: git cannot show ${shown(path)} at ${rev}: ${out.stderr.trim().split("\n")[0] ?? ""}`);
  return out.stdout;
}

/** The old spec of `diff --from`: a file, or `git:REV` for the new spec's path at REV (read with `git show`). */
function readOldSpec(from: string, r: Resolved): { text: string; label: string } {
  if (from.startsWith("git:")) return { text: gitShow(from, r.spec, "--from"), label: `${from.slice(4)}:${shown(r.spec)}` };
  const path = resolve(process.cwd(), from);
  if (!existsSync(path) || !statSync(path).isFile()) throw new UsageError(`old spec not found: ${from}`);
  return { text: readFileSync(path, "utf8"), label: shown(path) };
}

type MockCommandFlags = { host: string; port: string; records?: string; seed?: string; http?: boolean; v3Batch?: boolean; cert?: string; key?: string; certOut?: string; eventHost?: string[]; eventTimeout?: string };

async function runMock(r: Resolved, opts: MockCommandFlags): Promise<number> {
  const port = Number(opts.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a port number (0 to 65535), not ${opts.port}`);
  const records = opts.records === undefined ? undefined : Number(opts.records);
  if (records !== undefined && (!Number.isInteger(records) || records < 0)) throw new UsageError(`--records must be a whole number, not ${opts.records}`);
  if (Boolean(opts.cert) !== Boolean(opts.key)) throw new UsageError("--cert and --key go together");
  const eventTimeout = opts.eventTimeout === undefined ? undefined : Number(opts.eventTimeout);
  if (eventTimeout !== undefined && (!Number.isInteger(eventTimeout) || eventTimeout < 1 || eventTimeout > 600_000)) throw new UsageError(`--event-timeout must be a number of milliseconds (1 to 600000), not ${opts.eventTimeout}`);
  const eventHosts = opts.eventHost ?? [];
  for (const h of eventHosts) if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)$/i.test(h)) throw new UsageError(`--event-host takes a host name or address, not ${h}`);
  const spec = readSpecSource(r);
  const printing = printOptions(r, "text");
  if ("error" in spec) {
    print([spec.error], "text", printing);
    return EXIT.specErrors;
  }
  const templateSet = loadTemplateSet(r.templates);
  const result = await generateSource(spec.source, {
    specPath: r.specDisplay,
    ...(spec.docs ? { docs: spec.docs } : {}),
    generatorName: GENERATOR_NAME,
    generatorVersion: generatorVersion(),
    templates: templateSet.templates,
    runtime: loadRuntime(),
    v3ErrorPrefix: r.v3ErrorPrefix,
    packages: r.packages,
    customTemplates: templateSet.custom,
    format: false,
    only: "server",
  });
  const diagnostics = applyIgnore(result.diagnostics, r);
  if (hasErrors(diagnostics)) {
    print(diagnostics.filter((d) => d.severity === "error"), "text", printing);
    return EXIT.specErrors;
  }
  const { serveMock, MockInputError } = await import("./mock.js");
  const { readStates } = await import("../emit/server/mock.js");
  const unmodelled = result.model ? readStates(view(result.model)).unmodelled : [];
  for (const u of unmodelled) process.stderr.write(`notice: ${shown(r.spec)}:${u.row}: state row not modelled (${u.text}): ${u.why}\n`);
  try {
    return await serveMock(result.files, { host: opts.host, port, ...(records !== undefined ? { records } : {}), ...(opts.seed ? { seed: resolve(opts.seed) } : {}), http: Boolean(opts.http), v3Batch: Boolean(opts.v3Batch), ...(opts.cert ? { cert: opts.cert, key: opts.key } : {}), ...(opts.certOut ? { certOut: resolve(opts.certOut) } : {}), ...(eventHosts.length ? { eventHosts } : {}), ...(eventTimeout !== undefined ? { eventTimeoutMs: eventTimeout } : {}) }, opts.seed ? shown(resolve(opts.seed)) : null);
  } catch (err) {
    if (err instanceof MockInputError) throw new UsageError(err.message);
    throw err;
  }
}

/** `compare` (decisions.md D15): the spec's model against the reference's, in the diff engine's divergence mode. */
async function runCompare(r: Resolved, withDir: string, format: DiffFormat, failOn: Severity | undefined): Promise<number> {
  const { compareModels } = await import("../diff/index.js");
  const { formatCompare } = await import("../diff/format.js");
  if (statSync(r.spec).isDirectory()) throw new UsageError(`--spec ${shown(r.spec)} is a folder; compare reads the spec file and --with the reference's folder`);
  const dir = resolve(process.cwd(), withDir);
  if (withDir.trim() === "") throw new UsageError("--with: the path is empty; name the reference's folder");
  if (!existsSync(dir)) throw new UsageError(`reference folder not found: ${withDir}`);
  const display = relative(process.cwd(), dir).split(sep).join("/") || ".";
  const spec = readSpecText(r);
  if ("error" in spec) {
    process.stderr.write(formatDiagnostics([spec.error], "text", printOptions(r, "text")));
    return EXIT.specErrors;
  }
  const specModel = buildFromText(spec.text, r.specDisplay, { legacyGet: r.legacyGet });
  const reference = buildFromSource(readReferenceFolder(dir, display, "reference folder", withDir), { legacyGet: r.legacyGet });
  if (!specModel.model || !reference.model) {
    process.stderr.write(formatDiagnostics([...specModel.diagnostics, ...reference.diagnostics].filter((d) => d.severity === "error"), "text"));
    process.stderr.write(`${GENERATOR_NAME}: ${!specModel.model ? "the spec" : "the reference"} has errors; nothing was compared\n`);
    return EXIT.specErrors;
  }
  const report = compareModels(specModel.model, reference.model, { from: r.specDisplay, to: display });
  const root = format === "github" ? repositoryRoot() : process.cwd();
  process.stdout.write(formatCompare(report, format, { githubPath: (file) => (file === r.specDisplay ? relative(root, r.spec).split(sep).join("/") : file) }));
  if (failOn && report.changes.some((c) => severityAtLeast(c.severity, failOn))) return EXIT.failOn;
  return EXIT.ok;
}

async function runDiff(r: Resolved, from: string, format: DiffFormat, failOn: Severity | undefined): Promise<number> {
  const { diffModels } = await import("../diff/index.js");
  const { formatDiff } = await import("../diff/format.js");
  const folder = statSync(r.spec).isDirectory();
  const to = shown(r.spec);
  let before: ReturnType<typeof buildFromText>;
  let after: ReturnType<typeof buildFromText>;
  let old: { label: string };
  if (folder) {
    // A new snapshot of the reference is read like a new version of the spec (issue 28): both folders whole, their
    // pages named alike so that a page's facts meet their earlier selves.
    const oldPath = resolve(process.cwd(), from);
    const oldSource = from.startsWith("git:") ? referenceSource(gitFolder(from, r.spec, r.specDisplay), r.spec, r.specDisplay) : readReferenceFolder(oldPath, r.specDisplay, "old folder", from);
    old = { label: from.startsWith("git:") ? `${from.slice(4)}:${to}` : shown(oldPath) };
    before = buildFromSource(oldSource, { legacyGet: r.legacyGet });
    after = buildFromSource(readReferenceFolder(r.spec, r.specDisplay, "spec folder", shown(r.spec)), { legacyGet: r.legacyGet });
  } else {
    const oldSpec = readOldSpec(from, r);
    old = oldSpec;
    const spec = readSpecText(r);
    if ("error" in spec) {
      process.stderr.write(formatDiagnostics([spec.error], "text", printOptions(r, "text")));
      return EXIT.specErrors;
    }
    before = buildFromText(oldSpec.text.replace(/^\uFEFF/, ""), oldSpec.label, { legacyGet: r.legacyGet });
    after = buildFromText(spec.text, to, { legacyGet: r.legacyGet });
  }
  const errors = [...before.diagnostics, ...after.diagnostics].filter((d) => d.severity === "error");
  if (!before.model || !after.model) {
    process.stderr.write(formatDiagnostics(errors, "text"));
    process.stderr.write(`${GENERATOR_NAME}: ${!before.model ? `the old spec (${old.label})` : "the new spec"} has errors; nothing was compared\n`);
    return EXIT.specErrors;
  }
  const report = diffModels(before.model, after.model, { from: old.label, to });
  const root = format === "github" ? repositoryRoot() : process.cwd();
  process.stdout.write(formatDiff(report, format, { githubPath: (file) => (file === to ? relative(root, r.spec).split(sep).join("/") : file) }));
  if (failOn && report.changes.some((c) => severityAtLeast(c.severity, failOn))) return EXIT.failOn;
  return EXIT.ok;
}

/**
 * The summary of what the spec change did (issue 7): the version, the bump and the counts per severity; every change
 * with `--verbose`; and the handlers whose types changed, since `tsc` is where their implementers see it.
 */
async function reportRelease(r: Resolved, result: Awaited<ReturnType<typeof generateSource>>, verbose: boolean): Promise<void> {
  const release = result.release;
  if (!release || !result.model) return;
  if (!release.diff || release.previousVersion === null) {
    process.stderr.write(`${GENERATOR_NAME}: version ${release.version} (first generation)\n`);
    return;
  }
  if (release.regenerated) {
    process.stderr.write(`${GENERATOR_NAME}: version ${release.version} (patch from ${release.previousVersion}: the spec's model is the same, the generated files changed)\n`);
    return;
  }
  if (release.diff.bump === "none" && release.version === release.previousVersion) return;
  // Loaded only when there is something to report: an unchanged spec, the usual run, does not need them.
  const { formatDiff, summaryLine } = await import("../diff/format.js");
  const { affectedHandlers } = await import("../diff/index.js");
  process.stderr.write(`${GENERATOR_NAME}: version ${release.version} (from ${release.previousVersion}); ${summaryLine(release.diff)}\n`);
  if (verbose) process.stderr.write(formatDiff(release.diff, "text").split("\n").slice(0, -2).map((l) => `  ${l}\n`).join(""));
  const handlers = affectedHandlers(release.diff, result.model);
  if (handlers.length > 0) process.stderr.write(`${GENERATOR_NAME}: handler types changed (tsc shows what to change): ${handlers.join(", ")}\n`);
}

/**
 * The user-owned skeleton follows the spec (issue 7): stubs for the methods it lacks, a `@deprecated` line on the
 * handlers of methods the spec dropped (generator/emit/server/merge.ts). A cheap look at the text decides first
 * whether anything is to be done, so that ts-morph loads only then. Under `--check` nothing is written: a skeleton
 * that lacks stubs is stale, with the method names; the user's own edits never are.
 */
async function followSkeleton(r: Resolved, result: Awaited<ReturnType<typeof generateSource>>, check: boolean): Promise<{ files: GeneratedFile[]; lacking: Array<{ path: string; methods: string[] }> }> {
  const lacking: Array<{ path: string; methods: string[] }> = [];
  const { model, release } = result;
  if (!model || !release) return { files: result.files, lacking };
  const files: GeneratedFile[] = [];
  for (const f of result.files) {
    const current = f.userOwned ? await readOutputFile(r.out, f.path) : undefined;
    if (current === undefined) {
      files.push(f);
      continue;
    }
    const where = shown(resolve(r.out, f.path));
    const drift = skeletonDrift(model, current);
    const dropped = (version: "legacy" | "v3") => {
      const fromDiff = new Map((release.diff?.changes ?? []).filter((c) => c.code === "method-removed" && c.version === version).map((c) => [c.method ?? "", c.from]));
      const names = new Set([...release.removedHandlers[version], ...fromDiff.keys()]);
      return [...names]
        // The name anywhere in the text (the tree decides whether it is a handler); not yet marked.
        .filter((n) => current.includes(n) && !current.includes(`@deprecated The spec no longer has \`${n}\``))
        .map((name) => {
          const from = fromDiff.get(name);
          const was = from && release.previousVersion ? ` (it was at line ${from.line} of the spec of version ${release.previousVersion})` : "";
          return { name, note: `The spec no longer has \`${name}\`${was}; the router ignores this handler. Delete it when you no longer need it.` };
        });
    };
    const deprecate = { legacy: dropped("legacy"), v3: dropped("v3") };
    if (drift.added.length === 0 && deprecate.legacy.length === 0 && deprecate.v3.length === 0) {
      files.push(f);
      continue;
    }
    const { mergeSkeleton } = await import("../skeleton/merge.js");
    const merged = mergeSkeleton(current, f.contents, { add: skeletonMethodNames(view(model)), deprecate });
    if (merged.kind === "failed") {
      process.stderr.write(`${where}:${merged.line}:${merged.column}: warning skeleton-not-updated: ${merged.reason}; the skeleton was left as it was${drift.added.length ? ` and lacks handlers for ${drift.added.join(", ")}` : ""}\n`);
      if (check && drift.added.length > 0) lacking.push({ path: f.path, methods: drift.added });
      files.push(f);
      continue;
    }
    if (merged.kind === "unchanged") {
      files.push(f);
      continue;
    }
    if (check) {
      if (merged.added.length > 0) lacking.push({ path: f.path, methods: merged.added });
      files.push(f);
      continue;
    }
    if (merged.added.length > 0) process.stderr.write(`${where}: added handler stubs: ${merged.added.join(", ")}\n`);
    if (merged.deprecated.length > 0) process.stderr.write(`${where}: marked @deprecated (no longer in the spec): ${merged.deprecated.join(", ")}\n`);
    files.push({ ...f, contents: merged.text, mergedFrom: current });
  }
  return { files, lacking };
}

function formatOption(): Option {
  return new Option("--format <format>", "diagnostics format").choices(["text", "json", "github"]).default("text");
}

type GenerateFlags = CommonOptions & { check?: boolean; watch?: boolean; verbose?: boolean; format: DiagnosticFormat };

/** What every command's help ends with: the exit codes and where the docs are (issue 25). */
const HELP_EXITS = "Exit codes: 0 done or up to date; 1 --check found stale, missing or extra files; 2 the spec has errors (or warnings under --fail-on-warnings); 3 a usage error, or a bug.";
const HELP_DOCS = "Docs: README.md#command-line, and the spec dialect in spec-source/README.md (both in node_modules/collab-rest-codegen/).";

export async function main(argv: string[]): Promise<number> {
  let exit: number = EXIT.ok;
  const program = new Command()
    .name(GENERATOR_NAME)
    .description("Generates types, a client, a server and OpenAPI documents from the Markdown API spec.")
    .version(generatorVersion())
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  program
    .command("generate")
    .description("generate the output folder from the spec")
    .option("--spec <file>", "the spec file, or the platform's reference folder (overrides the config's `spec`)")
    .option("--docs <dir>", "the platform's reference beside the spec: one model from both (overrides the config's `docs`)")
    .option("--out <dir>", "the output folder (overrides the config's `out`)")
    .option("--config <file>", `the config file (default ${DEFAULT_CONFIG_FILE})`)
    .option("--check", "write nothing; list stale, missing, extra and untracked files; exit 1 on stale, missing or extra")
    .option("--watch", "regenerate whenever the spec changes")
    .option("--templates <dir>", "a folder of templates that replace the built-in ones")
    .option("--force", "write into a folder that looks like a project, and replace generated files that were edited")
    .option("--fail-on-warnings", "warnings count as errors: nothing is written, exit 2")
    .option("--previous <model>", "an earlier model.json (a file, or git:REV for the output folder's) to version against")
    .option("--verbose", "list every change of the spec since the previous generation")
    .option("--lock-wait <seconds>", "how long to wait for another run writing into the output folder before exit 3", "30")
    .addOption(formatOption())
    .addHelpText(
      "after",
      [
        "",
        "Examples:",
        "  collab-rest-codegen generate                       # the config's spec into its out folder",
        "  collab-rest-codegen generate --check               # in CI: exit 1 when output/ is not what the spec makes",
        "  collab-rest-codegen generate --spec api.md --out generated --watch",
        "",
        "Required: none (the spec and out come from codegen.config.yaml, or these defaults).",
        HELP_EXITS,
        HELP_DOCS,
      ].join("\n"),
    )
    .action(async (opts: GenerateFlags) => {
      const r = resolveOptions(opts, process.cwd());
      if (opts.watch && !opts.check) {
        const { watchSpec } = await import("./watch.js");
        // Every run of the session versions against the output as it was when the session began, so that ten saves
        // of one change are one release, not ten (issue 25); git's HEAD still wins where the output is tracked.
        r.sessionBase = readPreviousGeneration(r);
        exit = await watchSpec(r.spec, shown(r.spec), () => runGenerate(r, false, opts.format, Boolean(opts.verbose)).catch((err: unknown) => reportError(err)));
        return;
      }
      exit = await runGenerate(r, Boolean(opts.check), opts.format, Boolean(opts.verbose));
    });
  program
    .command("lint")
    .description("read the spec and print its diagnostics; write nothing")
    .option("--spec <file>", "the spec file, or the platform's reference folder")
    .option("--config <file>", `the config file (default ${DEFAULT_CONFIG_FILE})`)
    .option("--docs <dir>", "the platform's reference beside the spec: its pages are read and reported too (overrides the config's `docs`)")
    .option("--fail-on-warnings", "exit 2 when there is any warning")
    .addOption(formatOption())
    .addHelpText(
      "after",
      [
        "",
        "Examples:",
        "  collab-rest-codegen lint                           # the config's spec (and its `docs`, when it names one)",
        "  collab-rest-codegen lint --spec api.md --format github",
        "  collab-rest-codegen lint --docs spec-source/platform-docs",
        "",
        "Required: none.",
        HELP_EXITS,
        HELP_DOCS,
      ].join("\n"),
    )
    .action((opts: CommonOptions & { format: DiagnosticFormat }) => {
      const r = resolveOptions(opts, process.cwd());
      const spec = readSpecSource(r);
      const printing = printOptions(r, opts.format);
      if ("error" in spec) {
        print([spec.error], opts.format, printing);
        exit = EXIT.specErrors;
        return;
      }
      // With the reference beside the spec (the config's `docs` or --docs), both inputs are read, as generate reads them.
      const read = (source: InputSource) => buildFromSource(source, { legacyGet: r.legacyGet }).diagnostics;
      const found = spec.docs ? sortDiagnostics([...read(spec.source), ...read(spec.docs)]) : read(spec.source);
      const diagnostics = applyIgnore(found, r);
      keepCache(r, spec.source.cache ?? spec.docs?.cache);
      print(diagnostics, opts.format, printing);
      if ((spec.source.files.length > 1 || spec.docs) && opts.format !== "json") process.stderr.write(prefixed(summarizeDiagnostics(diagnostics)));
      exit = hasErrors(diagnostics) || (r.failOnWarnings && diagnostics.length > 0) ? EXIT.specErrors : EXIT.ok;
    });
  program
    .command("diff")
    .description("compare the models of two specs: every change with its code, its severity per audience and its positions")
    .requiredOption("--from <old>", "the old spec: a file (a folder for a reference folder), or git:REV for the spec's path at that revision")
    .option("--spec <file>", "the new spec, a file or the reference's folder (default: the config's `spec`)")
    .option("--config <file>", `the config file (default ${DEFAULT_CONFIG_FILE})`)
    .addOption(new Option("--format <format>", "report format").choices(["text", "json", "markdown", "github"]).default("text"))
    .addOption(new Option("--fail-on <level>", "exit 1 when a change reaches this severity").choices(["breaking", "minor", "patch"]))
    .addHelpText(
      "after",
      [
        "",
        "Examples:",
        "  collab-rest-codegen diff --from git:HEAD~1         # what the last commit changed in the spec",
        "  collab-rest-codegen diff --from old.md --format markdown --fail-on breaking",
        "",
        "Required: --from.",
        "Exit codes: 0 done; 1 a change reaches --fail-on; 2 a spec has errors; 3 a usage error.",
        "Change codes and severities: README.md#change-codes (node_modules/collab-rest-codegen/README.md).",
      ].join("\n"),
    )
    .action(async (opts: CommonOptions & { from: string; format: DiffFormat; failOn?: Severity }) => {
      const r = resolveOptions(opts, process.cwd());
      exit = await runDiff(r, opts.from, opts.format, opts.failOn);
    });
  program
    .command("compare")
    .description("where the spec and the platform's reference disagree: every method both describe, member by member, with diff's change codes and both positions")
    .option("--spec <file>", "the spec file (default: the config's `spec`)")
    .requiredOption("--with <dir>", "the platform's reference: a folder laid out as api-reference/<area>/…")
    .option("--config <file>", `the config file (default ${DEFAULT_CONFIG_FILE})`)
    .addOption(new Option("--format <format>", "report format").choices(["text", "json", "markdown", "github"]).default("text"))
    .addOption(new Option("--fail-on <level>", "exit 1 when a divergence reaches this severity").choices(["breaking", "minor", "patch"]))
    .addHelpText(
      "after",
      [
        "",
        "Examples:",
        "  collab-rest-codegen compare --with spec-source/platform-docs",
        "  collab-rest-codegen compare --with docs --format markdown --fail-on breaking",
        "",
        "Required: --with.",
        "Exit codes: 0 done; 1 a divergence reaches --fail-on; 2 an input has errors; 3 a usage error.",
      ].join("\n"),
    )
    .action(async (opts: CommonOptions & { with: string; format: DiffFormat; failOn?: Severity }) => {
      const r = resolveOptions(opts, process.cwd());
      exit = await runCompare(r, opts.with, opts.format, opts.failOn);
    });
  program
    .command("mock")
    .description("serve the whole API from the spec on this machine: the generated router with default handlers, no code")
    .option("--spec <file>", "the spec file, or the platform's reference folder (overrides the config's `spec`)")
    .option("--docs <dir>", "the platform's reference beside the spec: serve the merged model (overrides the config's `docs`)")
    .option("--config <file>", `the config file (default ${DEFAULT_CONFIG_FILE})`)
    .option("--host <host>", "the address to listen on", "127.0.0.1")
    .option("--port <n>", "the port; 0 picks a free one", "0")
    .option("--records <n>", "records each list method holds (default: three pages)")
    .option("--seed <file>", "records and credentials, JSON or YAML (seed.schema.json of the server package)")
    .option("--http", "serve plain HTTP (local development; the platform itself refuses HTTP)")
    .option("--v3-batch", "serve the platform's 3.0 batch (off by default: the spec says to call 3.0 methods one by one)")
    .option("--cert <file>", "a TLS certificate (PEM), with --key; default: a self-signed one made at start")
    .option("--key <file>", "the certificate's private key (PEM)")
    .option("--cert-out <file>", "where to write the certificate made at start (default: ~/.cache/collab-rest-codegen/mock-HOST.pem)")
    .option("--event-host <host>", "a host beyond loopback that POST /_mock/events may deliver events to (repeat for more)", (v: string, all: string[] = []) => [...all, v])
    .option("--event-timeout <ms>", "how long one delivery of an event waits for the handler (default 5000)")
    .addHelpText(
      "after",
      [
        "",
        "Examples:",
        "  collab-rest-codegen mock --port 8443               # https://127.0.0.1:8443 with a certificate made at start",
        "  collab-rest-codegen mock --http --records 120",
        "  curl -X POST URL/_mock/events -H 'content-type: application/json' -d '{\"event\":\"ONCRMDEALADD\"}'   # to the handlers bound on loopback",
        "",
        "Required: none. The first line on stdout is `listening on URL`.",
        "Exit codes: 0 stopped by a signal; 2 the spec has errors; 3 a usage error (a port in use, a bad seed).",
        "README: the mock's section (README.md#local-development).",
      ].join("\n"),
    )
    .action(async (opts: CommonOptions & MockCommandFlags) => {
      const r = resolveOptions(opts, process.cwd());
      exit = await runMock(r, opts);
    });
  program
    .command("init")
    .argument("[dir]", "the folder to write the config into", ".")
    .option("--spec <file>", "the spec file (default: the one Markdown spec found in the folder)")
    .option("--out <dir>", `the output folder (default: ${DEFAULT_CONFIG.out} beside the config)`)
    .description(`write a commented ${DEFAULT_CONFIG_FILE} with every key and its default; print the npm scripts to add`)
    .addHelpText(
      "after",
      [
        "",
        "Examples:",
        "  collab-rest-codegen init                           # finds the one Markdown spec in this folder",
        "  collab-rest-codegen init --spec api/platform.md --out generated",
        "",
        "Required: none; --spec when the folder holds no spec of this dialect, or several.",
        "Exit codes: 0 written; 3 a config exists, or the spec cannot be found.",
        HELP_DOCS,
      ].join("\n"),
    )
    .action(async (dir: string, opts: { spec?: string; out?: string }) => {
      const { initialConfig } = await import("./config-schema.js");
      const target = resolve(process.cwd(), dir, DEFAULT_CONFIG_FILE);
      if (existsSync(target)) throw new UsageError(`${shown(target)} exists; init writes a new config only, and changed nothing`);
      if (!existsSync(dirname(target))) throw new UsageError(`folder not found: ${dir}`);
      const folder = dirname(target);
      let spec: string;
      if (opts.spec) {
        spec = resolve(process.cwd(), opts.spec);
        if (!existsSync(spec) || !statSync(spec).isFile()) throw new UsageError(`spec file not found: ${opts.spec}${didYouMean(spec)}`);
      } else {
        const found = findSpecs(folder);
        if (found.length !== 1) {
          throw new UsageError(
            found.length === 0
              ? `found no Markdown spec in ${shown(folder)}; name it with --spec FILE`
              : `found ${found.length} Markdown specs in ${shown(folder)} (${found.map(shown).join(", ")}); name one with --spec FILE`,
          );
        }
        spec = found[0] as string;
      }
      const fromConfig = (p: string) => relative(folder, p).split(sep).join("/") || ".";
      writeFileSync(target, initialConfig({ spec: fromConfig(spec), out: opts.out ? fromConfig(resolve(process.cwd(), opts.out)) : DEFAULT_CONFIG.out, schema: schemaPathFrom(folder) }), { flag: "wx" });
      process.stdout.write(
        `wrote ${shown(target)}\nAdd these scripts to package.json:\n  "generate": "collab-rest-codegen generate",\n  "generate:check": "collab-rest-codegen generate --check"\n`,
      );
      exit = EXIT.ok;
    });
  try {
    await program.parseAsync(argv, { from: "user" });
    return exit;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    return reportError(err);
  }
}

/**
 * The Markdown files below `folder` that read as a spec of this dialect (a `/rest/` address and a bold method name),
 * for `init` without `--spec`. Dependencies, the output and hidden folders are left out; at most four levels deep.
 */
function findSpecs(folder: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, depth: number) => {
    let entries: import("node:fs").Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.name.startsWith(".") || e.name === "node_modules" || e.name === "platform-docs") continue;
      const path = join(dir, e.name);
      if (e.isDirectory() && depth < 4) walk(path, depth + 1);
      else if (e.isFile() && e.name.toLowerCase().endsWith(".md") && !/^(readme|changelog|license|contributing)\.md$/i.test(e.name)) {
        const text = readIfFile(path) ?? "";
        if (text.includes("/rest/") && /\*\*[a-z][\w]*(?:\.[\w]+)+\*\*/.test(text)) out.push(path);
      }
    }
  };
  walk(folder, 0);
  return out.sort();
}

/** The shipped config schema by a path from the config's folder: the nearest installed copy, else the usual place. */
function schemaPathFrom(folder: string): string {
  for (let d = folder; ; d = dirname(d)) {
    const schema = join(d, "node_modules", "collab-rest-codegen", "templates", "config.schema.json");
    if (existsSync(schema)) {
      const rel = relative(folder, schema).split(sep).join("/");
      return rel.startsWith(".") ? rel : `./${rel}`;
    }
    if (dirname(d) === d) break;
  }
  return "./node_modules/collab-rest-codegen/templates/config.schema.json";
}

/** Usage errors print one line; anything else is a bug in the generator and prints its stack. Both exit 3. */
function reportError(err: unknown): number {
  if (err instanceof UsageError || err instanceof OutputError) {
    process.stderr.write(`${GENERATOR_NAME}: ${redactSecrets(err.message)}\n`);
    return EXIT.usage;
  }
  process.stderr.write(`${GENERATOR_NAME}: internal error: ${redactSecrets((err as Error).stack ?? String(err))}\n`);
  return EXIT.usage;
}

function invokedDirectly(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}
if (invokedDirectly()) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
