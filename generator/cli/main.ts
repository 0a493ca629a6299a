#!/usr/bin/env node
import { existsSync, readFileSync, realpathSync, statSync, watch } from "node:fs";
import { dirname, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { Command, CommanderError, Option } from "commander";
import { parse as parseYaml } from "yaml";
import { type Diagnostic, diagnostic, hasErrors } from "../diagnostics/catalogue.js";
import { type DiagnosticFormat, formatDiagnostics } from "../diagnostics/format.js";
import { skeletonDrift } from "../emit/server/index.js";
import { buildFromText, generate } from "../generate.js";
import type { Model } from "../model/types.js";
import { type CliConfig, DEFAULT_CONFIG, DEFAULT_CONFIG_FILE, GENERATOR_NAME } from "../options.js";
import { type Formatter, workerFormatter } from "../render/format.js";
import { checkOutput, writeOutput } from "../render/write.js";
import { redactSecrets } from "../util/redact.js";
import { loadTemplates } from "./templates.js";
import { generatorVersion } from "./version.js";

/**
 * The command line of docs/contracts.md. Exit codes: 0 done or up to date, 1 `--check` found differences,
 * 2 the spec has errors (nothing written), 3 usage error or a bug in the generator.
 */

export const EXIT = { ok: 0, stale: 1, specErrors: 2, usage: 3 } as const;

class UsageError extends Error {}

interface Resolved {
  /** Absolute paths. */
  spec: string;
  out: string;
  templates: string | null;
  /** The spec's path as written into outputs: relative to the config's folder, `/` separators. */
  specDisplay: string;
  version: string | undefined;
}

function loadConfig(configPath: string | undefined, cwd: string): { config: CliConfig; base: string } {
  const path = configPath ? resolve(cwd, configPath) : resolve(cwd, DEFAULT_CONFIG_FILE);
  if (!existsSync(path)) {
    if (configPath) throw new UsageError(`config file not found: ${configPath}`);
    return { config: DEFAULT_CONFIG, base: cwd };
  }
  let raw: unknown;
  try {
    raw = parseYaml(readFileSync(path, "utf8"));
  } catch (err) {
    throw new UsageError(`config file ${configPath ?? DEFAULT_CONFIG_FILE} is not valid YAML: ${(err as Error).message}`);
  }
  const obj = (raw ?? {}) as Record<string, unknown>;
  const config: CliConfig = { ...DEFAULT_CONFIG };
  for (const key of ["spec", "out", "version", "templates"] as const) {
    const v = obj[key];
    if (v === undefined) continue;
    if (typeof v !== "string") throw new UsageError(`config key '${key}' must be a string`);
    config[key] = v;
  }
  return { config, base: dirname(path) };
}

function resolveOptions(opts: { spec?: string; out?: string; config?: string; templates?: string }, cwd: string): Resolved {
  const { config, base } = loadConfig(opts.config, cwd);
  const spec = opts.spec ? resolve(cwd, opts.spec) : resolve(base, config.spec);
  const out = opts.out ? resolve(cwd, opts.out) : resolve(base, config.out);
  if (!existsSync(spec) || !statSync(spec).isFile()) throw new UsageError(`spec file not found: ${opts.spec ?? config.spec}`);
  const templatesArg = opts.templates ?? config.templates;
  const templates = templatesArg ? resolve(opts.templates ? cwd : base, templatesArg) : null;
  if (templates && !existsSync(templates)) throw new UsageError(`templates folder not found: ${templatesArg}`);
  const rel = relative(base, spec);
  const specDisplay = (rel.startsWith("..") ? relative(cwd, spec) : rel).split(sep).join("/");
  return { spec, out, templates, specDisplay, version: config.version };
}

function print(diagnostics: Diagnostic[], format: DiagnosticFormat): void {
  const text = formatDiagnostics(diagnostics, format);
  if (format === "json" || text) process.stdout.write(text || "[]\n");
}

function readSpecText(r: Resolved): { text: string } | { error: Diagnostic } {
  try {
    const buf = readFileSync(r.spec);
    const text = new TextDecoder("utf-8", { fatal: true }).decode(buf);
    return { text };
  } catch (err) {
    const reason = err instanceof TypeError ? "the file is not valid UTF-8" : (err as Error).message;
    return { error: diagnostic("unreadable-file", { file: r.specDisplay, line: 1, column: 1, endLine: 1, endColumn: 1 }, { reason }) };
  }
}

async function runGenerate(r: Resolved, check: boolean, format: DiagnosticFormat): Promise<number> {
  const formatter = workerFormatter();
  try {
    return await runGenerateWith(r, check, format, formatter.format);
  } finally {
    await formatter.close();
  }
}

async function runGenerateWith(r: Resolved, check: boolean, format: DiagnosticFormat, formatter: Formatter): Promise<number> {
  const spec = readSpecText(r);
  if ("error" in spec) {
    print([spec.error], format);
    return EXIT.specErrors;
  }
  const result = await generate(spec.text, {
    specPath: r.specDisplay,
    ...(r.version ? { version: r.version } : {}),
    generatorName: GENERATOR_NAME,
    generatorVersion: generatorVersion(),
    templates: loadTemplates(r.templates),
    formatter,
  });
  print(result.diagnostics, format);
  if (hasErrors(result.diagnostics)) {
    process.stderr.write(`${GENERATOR_NAME}: the spec has errors; ${relative(process.cwd(), r.out) || "."} was not changed\n`);
    return EXIT.specErrors;
  }
  reportSkeletonDrift(r, result);
  if (check) {
    const report = await checkOutput(r.out, result.files);
    const lines = [
      ...report.stale.map((p) => `stale: ${p}`),
      ...report.missing.map((p) => `missing: ${p}`),
      ...report.extra.map((p) => `extra: ${p}`),
    ];
    if (lines.length > 0) {
      process.stderr.write(`${lines.join("\n")}\n${GENERATOR_NAME}: output is out of date; run generate\n`);
      return EXIT.stale;
    }
    process.stderr.write(`${GENERATOR_NAME}: ${result.files.length} files up to date\n`);
    return EXIT.ok;
  }
  await writeOutput(r.out, result.files);
  process.stderr.write(`${GENERATOR_NAME}: wrote ${result.files.length} files to ${relative(process.cwd(), r.out) || "."}\n`);
  return EXIT.ok;
}

/** Tells which methods a user-owned skeleton lacks or still has, since it is never regenerated. */
function reportSkeletonDrift(r: Resolved, result: { files: Array<{ path: string; userOwned?: boolean }>; model: Model | null }): void {
  if (!result.model) return;
  for (const f of result.files.filter((x) => x.userOwned)) {
    const full = resolve(r.out, ...f.path.split("/"));
    if (!existsSync(full)) continue;
    const drift = skeletonDrift(result.model, readFileSync(full, "utf8"));
    const shown = relative(process.cwd(), full).split(sep).join("/");
    if (drift.added.length > 0) process.stderr.write(`${shown}: new in the spec, add handlers: ${drift.added.join(", ")}\n`);
    if (drift.removed.length > 0) process.stderr.write(`${shown}: no longer in the spec, remove handlers: ${drift.removed.join(", ")}\n`);
  }
}

function formatOption(): Option {
  return new Option("--format <format>", "diagnostics format").choices(["text", "json", "github"]).default("text");
}

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
    .option("--spec <file>", "the spec file (overrides the config's `spec`)")
    .option("--out <dir>", "the output folder (overrides the config's `out`)")
    .option("--config <file>", `the config file (default ${DEFAULT_CONFIG_FILE})`)
    .option("--check", "write nothing; list stale, missing and extra files; exit 1 when there are any")
    .option("--watch", "regenerate whenever the spec changes")
    .option("--templates <dir>", "a folder of templates that replace the built-in ones")
    .addOption(formatOption())
    .action(async (opts: { spec?: string; out?: string; config?: string; check?: boolean; watch?: boolean; templates?: string; format: DiagnosticFormat }) => {
      const r = resolveOptions(opts, process.cwd());
      exit = await runGenerate(r, Boolean(opts.check), opts.format);
      if (opts.watch && !opts.check) await watchSpec(r, opts.format);
    });
  program
    .command("lint")
    .description("read the spec and print its diagnostics; write nothing")
    .option("--spec <file>", "the spec file")
    .option("--config <file>", `the config file (default ${DEFAULT_CONFIG_FILE})`)
    .addOption(formatOption())
    .action((opts: { spec?: string; config?: string; format: DiagnosticFormat }) => {
      const r = resolveOptions(opts, process.cwd());
      const spec = readSpecText(r);
      if ("error" in spec) {
        print([spec.error], opts.format);
        exit = EXIT.specErrors;
        return;
      }
      const result = buildFromText(spec.text, r.specDisplay);
      print(result.diagnostics, opts.format);
      exit = hasErrors(result.diagnostics) ? EXIT.specErrors : EXIT.ok;
    });
  try {
    await program.parseAsync(argv, { from: "user" });
    return exit;
  } catch (err) {
    if (err instanceof CommanderError) {
      return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (err instanceof UsageError) {
      process.stderr.write(`${GENERATOR_NAME}: ${redactSecrets(err.message)}\n`);
      return EXIT.usage;
    }
    process.stderr.write(`${GENERATOR_NAME}: internal error: ${redactSecrets((err as Error).stack ?? String(err))}\n`);
    return EXIT.usage;
  }
}

/** Regenerates on each change of the spec; a run with errors keeps the last good output. */
function watchSpec(r: Resolved, format: DiagnosticFormat): Promise<void> {
  process.stderr.write(`${GENERATOR_NAME}: watching ${r.specDisplay}\n`);
  return new Promise(() => {
    let timer: NodeJS.Timeout | null = null;
    let running = false;
    watch(r.spec, () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(async () => {
        if (running) return;
        running = true;
        try {
          await runGenerate(r, false, format);
        } finally {
          running = false;
        }
      }, 100);
    });
  });
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
