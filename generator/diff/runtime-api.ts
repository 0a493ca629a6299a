import { posix } from "node:path";
import { sha256 } from "../util/hash.js";
import type { Change } from "./index.js";
import { CHANGE_RULES, type ChangeCode, type Severity } from "./rules.js";

/**
 * The generated packages' runtime API (decisions.md D9): what the client and server packages export from the
 * runtime they ship (`runtime/client/…`, `runtime/server/…`), recorded per generation in `model.json`'s `generation`
 * so that a generator upgrade that adds an export is a minor version, and one that removes or changes one is a
 * breaking version. The model's own declarations (methods, resources) are versioned by the model's diff; these are
 * the runtime's, which change only with the generator.
 *
 * Each export is recorded as its parts, hashed: `d:` a declaration as a whole (a type alias, a constant, an enum), `s:`
 * one signature of a function (an overload added is an addition), `m:`/`m?:` a required/optional member of an
 * interface or class, `h:` an interface's or class's head (its type parameters and what it extends), `p?:` a trailing
 * optional parameter, `r:` a type the declaration names that the package does not export (its parts, at any depth).
 * A part gone is breaking (a changed part is one gone and one added: whether it widened cannot be told); a part added
 * is an addition, except a required member of an interface (code that implements it, a store, a hook, no longer
 * compiles). The build's `ref:` (what a declaration names) and `at:` (where it is declared) parts are resolved here
 * and not kept.
 *
 * The runtime modules' parts are read when the generator is built (cli/runtime-api-build.ts, with the TypeScript
 * parser) into `dist/shipped-runtime/api.json`; a run reads only the packages' entry files for the names they export
 * from the runtime, so that no run loads the TypeScript compiler.
 */

/** An export's parts (see above), sorted. */
export type ApiParts = string[];

/**
 * Each runtime module's exports, keyed by the module's path below the runtime (`server/index.d.ts`), and under `@name`
 * its own declarations that it does not export (found through the `ref:module#name` parts of those that name them).
 */
export type RuntimeModulesApi = Record<string, Record<string, ApiParts>>;

/**
 * Per package, each name its entry points export from the runtime, with its parts; `format` is how the parts are
 * made (RUNTIME_API_FORMAT): records of two formats are compared by their names alone.
 */
export type RuntimeApi = Partial<Record<"client" | "server", Record<string, ApiParts>>> & { format?: number };

/**
 * How the parts are made: 2 since referenced types (`r:`), optional parameters (`p?:`) and the client's `./shape.js`
 * are recorded; 3 since a referenced type is told from an export of the same name by where it is declared. A record
 * without a format is of the first.
 */
export const RUNTIME_API_FORMAT = 3;

const PACKAGES = ["client", "server"] as const;

/**
 * The runtime API of the generated packages: each package's entry points (the `types` of its `package.json`
 * exports), and what each re-exports from its `./runtime/` folder, with the parts `modules` records for it. Null
 * when `modules` is absent (a runtime given without its report).
 */
export function packageRuntimeApi(files: ReadonlyArray<{ path: string; contents: string }>, modules: RuntimeModulesApi | null): RuntimeApi | null {
  if (!modules) return null;
  const byPath = new Map(files.map((f) => [f.path, f.contents]));
  const out: RuntimeApi = { format: RUNTIME_API_FORMAT };
  for (const pkg of PACKAGES) {
    const manifest = byPath.get(`${pkg}/package.json`);
    if (manifest === undefined) continue;
    const names: Record<string, ApiParts> = {};
    for (const entry of entryTypes(manifest)) {
      const path = `${pkg}/${entry.replace(/^\.\//, "")}`;
      const text = byPath.get(path);
      if (text === undefined) continue;
      // An entry file that is itself a runtime module (`./redis`'s `runtime/server/redis.d.ts`): all it exports.
      const own = entry.match(/^\.\/runtime\/(.+)$/)?.[1];
      if (own !== undefined) {
        for (const [name, parts] of Object.entries(modules[own] ?? {})) if (!name.startsWith("@")) names[name] = parts;
        continue;
      }
      // Specifiers resolve from the entry's folder (an area's `../../runtime/client/index.js`); the client's
      // `shape.js` is the runtime's too (runtime/client/shape.ts, shipped as written).
      const inPackage = (specifier: string) => {
        const at = posix.normalize(posix.join(posix.dirname(entry.replace(/^\.\//, "")), specifier));
        if (at.startsWith("runtime/")) return at.slice("runtime/".length).replace(/\.js$/, ".d.ts");
        return pkg === "client" && at === "shape.js" ? "client/shape.d.ts" : undefined;
      };
      for (const re of runtimeReExports(text, inPackage)) {
        const module = modules[re.module] ?? {};
        // `@name` is a module's own declaration that it does not export (cli/runtime-api-build.ts).
        if (re.names === "*") {
          for (const [name, parts] of Object.entries(module)) if (!name.startsWith("@")) names[name] = parts;
        } else {
          for (const [local, exported] of re.names) if (module[local]) names[exported] = module[local] as ApiParts;
        }
      }
    }
    // Where each export is declared: a type an export names is the package's own only when it is one of these (the
    // client exports shape.js's `CallResult`; the runtime's `CallResult` interface that `withResponse` returns is not).
    const origins = new Set(Object.values(names).flatMap((parts) => parts.filter((p) => p.startsWith("at:")).map((p) => p.slice(3))));
    out[pkg] = Object.fromEntries(
      Object.entries(names)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([name, parts]) => [name, resolveRefs(parts, modules, origins)]),
    );
  }
  return out;
}

/**
 * An export's parts with its `ref:module#name` parts (the types its declaration names) resolved: each type the
 * package does not export itself, at any depth, becomes an `r:` part, the hash of its own parts; a type the package
 * exports has its own entry. So a narrowed `KeyRule`, which no entry exports, changes `ClientData`.
 */
function resolveRefs(parts: ApiParts, modules: RuntimeModulesApi, exported: ReadonlySet<string>): ApiParts {
  const own = parts.filter((p) => !p.startsWith("ref:") && !p.startsWith("at:"));
  const seen = new Set<string>();
  const queue = parts.filter((p) => p.startsWith("ref:")).map((p) => p.slice(4));
  const resolved: string[] = [];
  while (queue.length > 0) {
    const ref = queue.shift() as string;
    if (seen.has(ref)) continue;
    seen.add(ref);
    const hashAt = ref.lastIndexOf("#");
    const name = ref.slice(hashAt + 1);
    const module = modules[ref.slice(0, hashAt)];
    const theirs = module?.[name] ?? module?.[`@${name}`];
    if (!theirs) {
      resolved.push(`r:${sha256(`unresolved ${ref}`).slice(0, 16)}`);
      continue;
    }
    // A type the package exports has its own entry.
    if (theirs.some((p) => p.startsWith("at:") && exported.has(p.slice(3)))) continue;
    resolved.push(`r:${sha256(`${name}|${theirs.filter((p) => !p.startsWith("ref:") && !p.startsWith("at:")).join(",")}`).slice(0, 16)}`);
    for (const p of theirs) if (p.startsWith("ref:")) queue.push(p.slice(4));
  }
  return [...new Set([...own, ...resolved])].sort();
}

/** The `types` paths of a generated `package.json`'s exports (`./index.d.ts`, `./runtime/server/redis.d.ts`). */
function entryTypes(manifest: string): string[] {
  const exports = (JSON.parse(manifest) as { exports?: Record<string, { types?: string } | string> }).exports ?? {};
  return Object.values(exports)
    .map((e) => (typeof e === "string" ? null : (e.types ?? null)))
    .filter((t): t is string => t !== null);
}

/**
 * The re-exports of an entry file from its runtime: `export * from "./runtime/server/index.js";` and `export { a,
 * type B, c as d } from "./runtime/client/index.js";`, as the emitters print them (a statement at a line's start),
 * each specifier's module given by `moduleOf` (undefined: not the runtime's).
 * Read by hand, not with the TypeScript parser: the statements are the emitters' own, and the compiler would cost a
 * run a third of a second to load. Linear: each statement is read once, from the nearest line that opens one.
 */
export function runtimeReExports(text: string, moduleOf: (specifier: string) => string | undefined = rootRuntime): Array<{ module: string; names: "*" | Array<[string, string]> }> {
  const out: Array<{ module: string; names: "*" | Array<[string, string]> }> = [];
  const marker = ' from "';
  let previousEnd = 0;
  for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + marker.length)) {
    const close = text.indexOf('"', at + marker.length);
    if (close < 0) break;
    const module = moduleOf(text.slice(at + marker.length, close));
    // The statement opens at the nearest line that starts with `export` or `import` (its names are indented).
    let start = at;
    for (;;) {
      const nl = text.lastIndexOf("\n", start - 1);
      const lineStart = nl + 1;
      if (lineStart <= previousEnd || /^(?:export|import)\b/.test(text.slice(lineStart, lineStart + 7))) {
        start = lineStart;
        break;
      }
      start = nl;
    }
    previousEnd = close;
    const statement = text.slice(start, at);
    if (module === undefined || !statement.startsWith("export")) continue;
    if (/^export\s+(?:type\s+)?\*\s*$/.test(statement)) {
      out.push({ module, names: "*" });
      continue;
    }
    const braces = /^export\s+(?:type\s+)?\{([^}]*)\}\s*$/.exec(statement);
    if (!braces) continue;
    const names: Array<[string, string]> = [];
    for (const item of (braces[1] ?? "").split(",")) {
      const m = /^\s*(?:type\s+)?([A-Za-z_$][\w$]*)(?:\s+as\s+([A-Za-z_$][\w$]*))?\s*$/.exec(item);
      if (m?.[1]) names.push([m[1], m[2] ?? m[1]]);
    }
    out.push({ module, names });
  }
  return out;
}

/** The runtime module of a specifier in a package's root entry (`./runtime/server/index.js`), else undefined. */
function rootRuntime(specifier: string): string | undefined {
  return specifier.startsWith("./runtime/") ? specifier.slice("./runtime/".length).replace(/\.js$/, ".d.ts") : undefined;
}

const RUNTIME_CODE = { added: "runtime-export-added", removed: "runtime-export-removed", changed: "runtime-export-changed" } as const satisfies Record<string, ChangeCode>;

/** The runtime's change codes: each concerns only the package whose runtime it is (emit/changelog.ts). */
export const RUNTIME_CODES: ReadonlySet<ChangeCode> = new Set(Object.values(RUNTIME_CODE));

/**
 * What changed between two generations' runtime APIs, as changes of the package whose runtime it is: an export
 * added (minor), removed (breaking), or changed: breaking when a part is gone or a required member of an interface
 * came, else an addition (an overload, an optional member).
 */
export function runtimeApiChanges(previous: RuntimeApi, now: RuntimeApi): Change[] {
  // A record made another way says nothing of the parts: of it, only which names are exported still counts.
  const namesOnly = (previous.format ?? 1) !== (now.format ?? 1);
  const out: Change[] = [];
  for (const pkg of PACKAGES) {
    const was = previous[pkg];
    const is = now[pkg];
    if (!was || !is) continue;
    const change = (code: ChangeCode, severity: Severity, message: string): Change => ({
      code,
      severity,
      audiences: { [pkg]: severity },
      method: null,
      version: null,
      resource: null,
      message,
      from: null,
      to: null,
      at: { file: `${pkg}/runtime`, line: 1, column: 1 },
    });
    const label = `the ${pkg} package`;
    for (const name of Object.keys(is)) {
      const before = was[name];
      const after = is[name] as ApiParts;
      if (!before) {
        out.push(change(RUNTIME_CODE.added, CHANGE_RULES[RUNTIME_CODE.added][pkg] ?? "minor", `${label} exports \`${name}\` from its runtime`));
        continue;
      }
      if (namesOnly) continue;
      const gone = before.filter((p) => !after.includes(p));
      const came = after.filter((p) => !before.includes(p));
      if (gone.length === 0 && came.length === 0) continue;
      const breaking = gone.length > 0 || came.some((p) => p.startsWith("m:") || p.startsWith("h:"));
      const what = breaking ? (gone.length > 0 ? "lost or changed a part" : "gained a required member") : "gained a part (an overload or an optional member)";
      out.push(change(RUNTIME_CODE.changed, breaking ? "breaking" : "minor", `\`${name}\` of ${label}'s runtime ${what}`));
    }
    for (const name of Object.keys(was)) if (!is[name]) out.push(change(RUNTIME_CODE.removed, CHANGE_RULES[RUNTIME_CODE.removed][pkg] ?? "breaking", `${label} no longer exports \`${name}\` from its runtime`));
  }
  return out;
}

/**
 * This run's record, with the packages it did not emit as `recorded` has them (a run of the server alone keeps the
 * client's), in one order of keys whatever came before: the same input gives the same bytes.
 */
export function keptWith(recorded: RuntimeApi | undefined, read: RuntimeApi): RuntimeApi {
  const same = recorded && (recorded.format ?? 1) === (read.format ?? 1) ? recorded : undefined;
  const out: RuntimeApi = { format: read.format ?? RUNTIME_API_FORMAT };
  for (const pkg of PACKAGES) {
    const names = read[pkg] ?? same?.[pkg];
    if (names) out[pkg] = names;
  }
  return out;
}

/** A runtime API as `model.json` keeps it, or null when `raw` is not one (a generation written before it was kept). */
export function readRuntimeApi(raw: unknown): RuntimeApi | null {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return null;
  const format = (raw as Record<string, unknown>)["format"];
  const out: RuntimeApi = typeof format === "number" ? { format } : {};
  for (const pkg of PACKAGES) {
    const names = (raw as Record<string, unknown>)[pkg];
    if (names === undefined) continue;
    if (typeof names !== "object" || names === null || Array.isArray(names)) return null;
    const parts: Record<string, ApiParts> = {};
    for (const [name, p] of Object.entries(names)) {
      if (!Array.isArray(p) || !p.every((x) => typeof x === "string")) return null;
      parts[name] = p as string[];
    }
    out[pkg] = parts;
  }
  return out;
}
