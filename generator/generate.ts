import { checkModel } from "./check/rules.js";
import { type Diagnostic, diagnostic, hasErrors, sortDiagnostics } from "./diagnostics/catalogue.js";
import { emitManifest, emitModelJson, emitOpenApiFiles, modelJsonBody } from "./emit/index.js";
import { withPrintMemo } from "./emit/memo.js";
import { type GeneratedFile, withPackageMetadata } from "./emit/files.js";
import { buildModel } from "./model/build.js";
import { withV3ErrorPrefix } from "./model/v3-prefix.js";
import type { Model, ModelOptions } from "./model/types.js";
import { clientFiles } from "./emit/client/index.js";
import { serverMock } from "./emit/server/mock.js";
import { serverDocumentation, serverFiles } from "./emit/server/index.js";
import { SKELETON_PATH } from "./skeleton/index.js";
import { shippedSpecFile, typesFiles } from "./emit/types/index.js";
import { DEFAULT_PACKAGES, type GenerateOptions } from "./options.js";
import { fitsWidth } from "./emit/ts/layout.js";
import { formatFiles } from "./render/format.js";
import { redactQuoted } from "./read/secrets.js";
import { FRONT_ENDS, type FrontEnd, frontEndFor } from "./frontends/index.js";
import { type InputFile, type InputSource, oneFile } from "./source/index.js";
import { type MergeReport, mergeModels } from "./model/merge.js";
import { view } from "./model/view.js";
import { sha256 } from "./util/hash.js";
import { lineCommentText } from "./util/comment.js";
import type { DiffReport } from "./diff/index.js";
import { type Generation, type VersionDecision, bumpVersion, decideVersion, readPrevious } from "./diff/version.js";
import { changelogFile } from "./emit/changelog.js";
import { type RuntimeApi, type RuntimeModulesApi, keptWith, packageRuntimeApi, runtimeApiChanges } from "./diff/runtime-api.js";

/** The spec's text up to the model, with every diagnostic of reading, the model stage and the checks. */
export function buildFromText(specText: string, specPath: string, options: ModelOptions = {}): { model: Model | null; diagnostics: Diagnostic[]; secrets: string[] } {
  return buildFromSource(oneFile(specPath, specText), options);
}

/**
 * A source of files up to the model: the front end that reads it (frontends/index.ts), the model stage, the front
 * end's own accounting once the model is linked (the spec's no-drop ledger), and the checks, with every diagnostic.
 */
export function buildFromSource(
  source: InputSource,
  options: ModelOptions = {},
  frontEnds: readonly FrontEnd[] = FRONT_ENDS,
): { model: Model | null; diagnostics: Diagnostic[]; secrets: string[] } {
  // A byte order mark is not text: the CLI's decoder drops it, and so does the programmatic API (issue 24).
  const files = source.files.map((f) => ({ path: f.path, text: withoutBom(f.text).replace(/\r\n?/g, "\n") }));
  const input: InputSource = { ...source, files };
  const frontEnd = frontEndFor(input, frontEnds);
  // The input as model.json's `specFile` names it: the spec file, or the folder of a source of many.
  const at = files.length === 1 ? (files[0]?.path ?? source.root) : source.root;
  if (!frontEnd) {
    const expected = frontEnds.map((f) => f.kind).join(", ") || "none";
    const d = diagnostic("unknown-input", { file: at, line: 1, column: 1, endLine: 1, endColumn: 1 }, { files: files.length, expected: `an input one of these front ends reads: ${expected}` });
    return { model: null, diagnostics: [d], secrets: [] };
  }
  const reading = frontEnd.read(input, options);
  const built = buildModel(at, reading.fragments, options);
  // Every row, list item and backticked name under a method, a resource or an error table is a fact or a warning.
  const after = reading.afterModel?.(built.model, built.diagnostics);
  if (after?.readerSkips) built.model.readerSkips = after.readerSkips;
  // Every stage runs so that one run reports every problem; nothing is emitted after an error.
  const diagnostics = clampSpans([...reading.diagnostics, ...built.diagnostics, ...(after?.diagnostics ?? []), ...checkModel(built.model)], files);
  return { model: hasErrors(diagnostics) ? null : built.model, diagnostics: sortDiagnostics(diagnostics), secrets: reading.secrets };
}

function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Every span inside its file: a line that exists, and an end column no further than one past its line's last
 * character (issue 24: a reference's span ran to column 127 of a 110-character line). One place for every reader.
 */
function clampSpans(diagnostics: Diagnostic[], files: readonly InputFile[]): Diagnostic[] {
  const lengthsOf = new Map<string, number[]>();
  const texts = new Map(files.map((f) => [f.path, f.text]));
  return diagnostics.map((d) => {
    const text = texts.get(d.file);
    if (text === undefined) return d;
    let lengths = lengthsOf.get(d.file);
    if (!lengths) lengthsOf.set(d.file, (lengths = text.split("\n").map((l) => l.length)));
    const last = Math.max(1, lengths.length);
    const lengthOf = (line: number) => lengths?.[line - 1] ?? 0;
    const line = Math.min(Math.max(1, d.line), last);
    const column = Math.min(Math.max(1, d.column), lengthOf(line) + 1);
    let endLine = Math.min(Math.max(line, d.endLine), last);
    let endColumn = Math.min(Math.max(1, d.endColumn), lengthOf(endLine) + 1);
    if (endLine === line && endColumn < column) endColumn = column;
    if (endLine < line) endLine = line;
    if (line === d.line && column === d.column && endLine === d.endLine && endColumn === d.endColumn) return d;
    return { ...d, line, column, endLine, endColumn };
  });
}

export interface GenerateResult {
  /** Empty when a diagnostic is an error: nothing is emitted after a failed stage. */
  files: GeneratedFile[];
  diagnostics: Diagnostic[];
  model: Model | null;
  /** The packages' version and how it was reached; null when nothing was emitted. */
  release: Release | null;
  /** With the reference beside the spec (`docs`): the merged model's methods by input, and the gaps pages answered. */
  merge?: MergeReport;
}

export interface Release {
  version: string;
  previousVersion: string | null;
  /** The diff of the previous model and this one; null on a first generation. */
  diff: DiffReport | null;
  /** The model did not change but the generated files did (a generator or template upgrade): a patch version. */
  regenerated: boolean;
  removedHandlers: Generation["removedHandlers"];
}

/**
 * The pure core: spec text in, generated files and diagnostics out. Touches no disk and no process state;
 * the CLI and the writer do the I/O. `options.previous` is the previous generation as the CLI read it.
 */
export async function generate(rawSpecText: string, options: GenerateOptions): Promise<GenerateResult> {
  return generateSource(oneFile(options.specPath, rawSpecText), options);
}

/**
 * The same for a source of files, read by the front end that detects it (`options.frontEnds`, else this
 * generator's): the shipped spec is a source of one file, the platform's reference a folder of pages.
 */
export async function generateSource(source: InputSource, options: GenerateOptions): Promise<GenerateResult> {
  const modelOptions = { ...(options.legacyGet !== undefined ? { legacyGet: options.legacyGet } : {}) };
  const built = buildFromSource(source, modelOptions, options.frontEnds ?? FRONT_ENDS);
  // With the platform's reference beside the spec (issue 29, D24): one model, the spec's facts standing.
  const docs = options.docs ? buildFromSource(options.docs, modelOptions, options.frontEnds ?? FRONT_ENDS) : null;
  const diagnostics = docs ? sortDiagnostics([...built.diagnostics, ...docs.diagnostics]) : built.diagnostics;
  if (!built.model || (docs && !docs.model)) return { files: [], diagnostics, model: null, release: null };
  const both = docs?.model ? mergeModels(built.model, docs.model) : null;
  const merged = both ? both.model : built.model;
  const mergeReport = both ? { merge: both.report } : {};
  // What the manifest and changelogs hash as the input: the spec, and the reference's pages when they are read too.
  const specText = options.docs ? `${sourceText(source)}\0${sourceText(options.docs)}` : sourceText(source);
  const model = withV3ErrorPrefix(merged, options.v3ErrorPrefix ?? "spec");
  const previous = options.previous ? readPrevious(options.previous.modelJson) : null;
  // The cheap check first: the new model written with the previous generation's record is the previous text.
  const modelBody = modelJsonBody(view(model));
  const candidate = previous ? emitModelJson(view(model), options, previous.generation, modelBody) : null;
  const sameModel = candidate !== null && candidate.contents === options.previous?.modelJson;
  const decided = decideVersion(model, options.version, previous, sameModel, options.specPath, options.breakingWhileZero ?? "minor");
  // The usual case, an unchanged spec, writes the model.json just built for the check.
  const reuse = candidate && previous && JSON.stringify(decided.generation) === JSON.stringify(previous.generation) ? candidate : null;
  const shipSpec = source.files.length === 1 ? (source.files[0]?.text ?? "") : null;
  let first = await emitAll(specText, shipSpec, model, options, decided, built.secrets, false, reuse, modelBody);
  // The runtime's exports changed since the recorded generation (a generator upgrade, D9): the version takes their
  // bump, and the packages are emitted again at it. A first record (no earlier one) changes no version.
  const recorded = previous?.generation.runtimeApi;
  const runtimeChanges = recorded && first.runtimeApi ? runtimeApiChanges(recorded, first.runtimeApi) : [];
  if (previous && first.runtimeApi && runtimeChanges.length > 0) {
    const again = decideVersion(model, options.version, previous, sameModel, options.specPath, options.breakingWhileZero ?? "minor", { changes: runtimeChanges, api: first.runtimeApi });
    first = await emitAll(specText, shipSpec, model, options, again, built.secrets, false, null, modelBody);
    return { files: first.files, diagnostics, model, release: first.release, ...mergeReport };
  }
  const hashes = options.previous?.fileHashes;
  // Only a generation that would keep the previous version can be an upgrade of the generator's own bytes.
  if (!previous || decided.version !== previous.generation.version || !hashes || !outputChanged(first.files, hashes)) {
    return { files: first.files, diagnostics, model, release: first.release, ...mergeReport };
  }
  // Same model, other bytes: what the packages hold changed all the same, so they get a patch version (D3).
  const version = bumpVersion(decided.version, "patch");
  const patched = await emitAll(specText, shipSpec, model, options, { ...decided, version, generation: { ...decided.generation, version } }, built.secrets, true, null, modelBody);
  return { files: patched.files, diagnostics, model, release: patched.release, ...mergeReport };
}

/**
 * The text a run's manifest and changelogs hash as "the spec": the file itself for a source of one file; for a folder,
 * each file's hash and path, a line each in path order, so that any change of any page changes it.
 */
function sourceText(source: InputSource): string {
  const only = source.files.length === 1 ? source.files[0] : undefined;
  if (only) return withoutBom(only.text);
  const files = [...source.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return files.map((f) => `${sha256(withoutBom(f.text).replace(/\r\n?/g, "\n"))}  ${f.path}\n`).join("");
}

/**
 * Whether the generated files differ from the previous manifest's: the new manifest (the last file) has their hashes.
 * `model.json` is not counted: its changes are the model's, which the diff judges, and a new shape of it with the
 * same model is no change of the packages (decisions.md D28).
 */
function outputChanged(files: readonly GeneratedFile[], hashes: Record<string, string>): boolean {
  const manifest = files[files.length - 1];
  const now = manifest?.path === "manifest.json" ? (JSON.parse(manifest.contents) as { files: Record<string, string> }).files : {};
  const paths = Object.keys(now).filter((p) => p !== "model.json");
  return paths.length !== Object.keys(hashes).filter((p) => p !== "model.json").length || paths.some((p) => hashes[p] !== now[p]);
}

async function emitAll(
  specText: string,
  /** The spec file's text, shipped in the types package for the declarations' `@see` (D20); null for a folder. */
  shipSpec: string | null,
  built: Model,
  options: GenerateOptions,
  decided: VersionDecision,
  /** Credentials the spec quotes (read once, with the model): no generated file holds them. */
  secrets: readonly string[],
  regenerated: boolean,
  modelJson: GeneratedFile | null = null,
  /** The model's members as model.json prints them (modelJsonBody), when the caller printed them already. */
  modelBody?: string,
): Promise<{ files: GeneratedFile[]; release: Release; runtimeApi: RuntimeApi | null }> {
  const { version } = decided;
  // The emit stage's entrance: from here on the input's prose is opaque (model/view.ts).
  const model = view(built);
  const opts = { ...options, version, packages: options.packages ?? DEFAULT_PACKAGES };
  // It opens every generated file as a `//` line (and a Markdown comment): a path with a line break stays one line.
  const header = lineCommentText(`Generated by ${opts.generatorName} from ${opts.specPath}. Do not edit.`).replace(/-->/g, "-- >");
  const { removedHandlers } = decided.generation;
  const serverOnly = options.only === "server";
  // The printers find what earlier runs printed in the print memo, when the caller lends one (emit/memo.ts). Not
  // when the spec quotes a credential: the texts are printed before it is redacted, and the memo is kept on disk.
  const memo = secrets.length > 0 ? undefined : options.printMemo;
  const code = withPrintMemo(memo, () => [
    ...(serverOnly ? [] : typesFiles(model, opts.specPath, header, { name: opts.packages.types, version, templates: opts.templates })),
    ...(serverOnly ? [] : clientFiles(model, { header, version, packages: opts.packages, templates: opts.templates, runtime: opts.runtime })),
    ...serverFiles(model, {
      header,
      version,
      specPath: opts.specPath,
      packages: opts.packages,
      templates: opts.templates,
      runtime: opts.runtime,
      skeletonPath: opts.skeletonPath ?? SKELETON_PATH,
      v3ErrorPrefix: opts.v3ErrorPrefix ?? "spec",
      removedHandlers,
    }),
  ]);
  // What the packages export from their runtime, recorded with the generation (D9): the next one compares with it.
  const read = packageRuntimeApi(code, runtimeModules(opts.runtime));
  // A run that emits one package (`only: "server"`) keeps the record of the others as it was.
  const runtimeApi = read ? keptWith(decided.generation.runtimeApi, read) : null;
  const generation = runtimeApi ? { ...decided.generation, runtimeApi } : decided.generation;
  const sameRecord = JSON.stringify(generation) === JSON.stringify(decided.generation);
  // Only code the generator does not print in its final layout is formatted: what replaced templates render, and a
  // built-in template's output with a line past the width (a very long name). The formatter starts first so that one on another thread works while this one emits the rest.
  const custom = new Set(options.customTemplates ?? Object.keys(options.templates));
  const laidOut = (f: GeneratedFile) => f.raw || (f.template !== undefined && !custom.has(f.template) && fitsWidth(f.contents));
  const toFormat = options.format === false ? [] : code.filter((f) => !laidOut(f));
  const formatting = formatInPlace(code, toFormat, options.formatter ?? formatFiles);
  const openapi = withPrintMemo(memo, () => emitOpenApiFiles(model, opts));
  const specSha256 = sha256(specText);
  const changelogs = (["types", "client", "server"] as const).map((kind) =>
    changelogFile(
      {
        kind,
        name: opts.packages[kind],
        version,
        previousVersion: decided.previousVersion,
        diff: decided.diff,
        regenerated: regenerated ? { generator: `${opts.generatorName} ${opts.generatorVersion}` } : null,
        specPath: opts.specPath,
        specSha256,
        previousText: options.previous?.changelogs?.[kind],
      },
      header,
    ),
  );
  const files: GeneratedFile[] = [
    (sameRecord ? modelJson : null) ?? emitModelJson(model, opts, generation, modelBody),
    // D29: `model.json` holds every position and changes with any edit; review tools fold it as generated.
    { path: ".gitattributes", raw: true, contents: `# ${header}\nmodel.json linguist-generated=true\n` },
    ...openapi.files,
    // Published documentation is cited by its public URLs (D20); only a spec file ships in the types package.
    ...(shipSpec === null ? [] : [shippedSpecFile(opts.specPath, withoutBom(shipSpec), header)]),
    ...serverDocumentation(openapi.v3, header),
    ...serverMock(model, openapi.legacy, openapi.v3, header),
    ...changelogs,
    ...(await formatting),
  ];
  for (const [i, f] of files.entries()) files[i] = withPackageMetadata(f, options.packageMetadata);
  // A credential the spec quotes reaches no generated file (each is a `secret-in-spec` warning of the reading).
  // The runtimes are copies of this repository's compiled code: they hold no spec text, and are left as they are.
  if (secrets.length > 0) for (const [i, f] of files.entries()) if (!/^[^/]+\/runtime\//.test(f.path)) files[i] = { ...f, contents: redactQuoted(f.contents, secrets) };
  files.push(emitManifest(files, specText, opts));
  return { files, release: { version, previousVersion: decided.previousVersion, diff: decided.diff, regenerated, removedHandlers }, runtimeApi };
}

/** The runtime modules' API as the build recorded it (`api.json` beside the compiled runtime), read once per runtime. */
const modulesOf = new WeakMap<object, RuntimeModulesApi | null>();
function runtimeModules(runtime: Readonly<Record<string, string>>): RuntimeModulesApi | null {
  if (!modulesOf.has(runtime)) {
    const text = runtime["api.json"];
    modulesOf.set(runtime, text === undefined ? null : (JSON.parse(text) as RuntimeModulesApi));
  }
  return modulesOf.get(runtime) ?? null;
}

/** `code` with the files of `toFormat` formatted, in the same order; no formatter call when there is nothing to format. */
async function formatInPlace(code: GeneratedFile[], toFormat: GeneratedFile[], formatter: (files: GeneratedFile[]) => Promise<GeneratedFile[]>): Promise<GeneratedFile[]> {
  if (toFormat.length === 0) return code;
  const formatted = new Map((await formatter(toFormat)).map((f) => [f.path, f.contents]));
  return code.map((f) => (formatted.has(f.path) ? { ...f, contents: formatted.get(f.path) ?? f.contents } : f));
}
