import { LineCounter, type Node, isMap, isScalar, isSeq, parseDocument } from "yaml";
import { isDiagnosticCode, severityOf } from "../diagnostics/catalogue.js";
import { nearest } from "../util/distance.js";
import type { PackageMetadata } from "../emit/files.js";

/**
 * The config file (`codegen.config.yaml`), validated against the schema below (decisions.md D12): an unknown key or
 * a bad value is a usage error at its `file:line:column`. Written by hand over the YAML AST rather than with ajv:
 * ajv's import and compile cost ~130 ms at every start (a run is ~900 ms), for nine keys, and its errors carry
 * JSON pointers where users need lines and columns.
 */

export interface IgnoreRule {
  code: string;
  method?: string;
  resource?: string;
  line?: number;
  /** Where the rule stands in the config, to report a rule that matched nothing. */
  at: { line: number; column: number };
}

export interface CliConfig {
  spec: string;
  out: string;
  version?: string;
  templates?: string;
  /** Where the user-owned handler skeleton lives, relative to the config's folder (default: inside `out`). */
  skeleton?: string;
  /** A folder where the reference's reading keeps its pages, the emit stage its texts and the write its record between runs (issue 28); none by default. */
  cache?: string;
  /** The platform's reference beside the spec (issue 29): one model from both; none by default. */
  docs?: string;
  ignore: IgnoreRule[];
  failOnWarnings: boolean;
  /** The prefix of the 3.0 error codes (D11): the spec's, or the platform's. */
  v3ErrorPrefix: "spec" | "platform";
  /** npm names of the generated packages, where the config gives them (`packages.types.name`). */
  packages?: { types?: string; client?: string; server?: string };
  /** What a breaking change bumps while the major version is 0 (D22): the minor, as semver's 0.x rule reads it. */
  breakingWhileZero: "minor" | "major";
  /** Legacy methods take GET with query parameters (D32), as the platform's reference on calling the API says. */
  legacyGet: boolean;
  /** The `package` key: members of every generated package.json. */
  packageMetadata?: PackageMetadata;
  /** Where each key stands in the config, for messages about its value (a spec path that does not exist). */
  positions: Record<string, { line: number; column: number }>;
}

export const DEFAULT_CONFIG_FILE = "codegen.config.yaml";
export const DEFAULT_CONFIG: CliConfig = {
  spec: "spec-source/collaboration-platform-api.md",
  out: "output",
  ignore: [],
  failOnWarnings: false,
  v3ErrorPrefix: "spec",
  breakingWhileZero: "minor",
  legacyGet: true,
  positions: {},
};

/** Each key, what its value must be, and what it means (the README's config table says the same). */
export const CONFIG_SCHEMA = {
  spec: { type: "path", doc: "the spec file" },
  out: { type: "path", doc: "the output folder" },
  version: { type: "semver", doc: "the packages' version at the first generation" },
  templates: { type: "path", doc: "a folder of templates that replace built-in ones by path" },
  skeleton: { type: "path", doc: "where the user-owned handler skeleton lives (a .ts file)" },
  cache: { type: "path", doc: "a folder where the reading of the platform's reference keeps its pages, the emit stage its printed texts, and the write a record of the output files, between runs (safe to delete)" },
  docs: { type: "path", doc: "the platform's reference beside the spec: one model from both, the spec's facts standing (a folder)" },
  ignore: { type: "ignore", doc: "warnings to silence: [{code, method | resource | line}]" },
  failOnWarnings: { type: "boolean", doc: "warnings count as errors: nothing is written, exit 2" },
  v3ErrorPrefix: { type: "choice", values: ["spec", "platform"], doc: "the prefix of the 3.0 error codes" },
  packages: { type: "packages", doc: "npm names of the generated packages: {types, client, server: {name}}" },
  breakingWhileZero: { type: "choice", values: ["minor", "major"], doc: "what a breaking change bumps while the major version is 0" },
  legacyGet: { type: "boolean", doc: "legacy methods also take GET with query parameters, as the platform's reference says (https://apidocs.bitrix24.com/settings/how-to-call-rest-api/general-principles.html)" },
  package: { type: "metadata", doc: "what the three packages are published with: license, author, homepage, repository, keywords, private, publishConfig" },
} as const;

/** An npm package name, scoped or not (npm's rules: lower case, URL-safe, at most 214 characters). */
const PACKAGE_NAME = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;
export const PACKAGE_KINDS = ["types", "client", "server"] as const;

export class ConfigError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    message: string,
  ) {
    super(`${file}:${line}:${column}: ${message}`);
  }
}

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** Parses and validates a config's text; `file` is the path printed in errors. */
export function parseConfig(text: string, file: string): CliConfig {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const at = (node: Node | null | undefined) => lines.linePos(node?.range?.[0] ?? 0);
  const fail = (node: Node | null | undefined, message: string): never => {
    const p = at(node);
    throw new ConfigError(file, p.line, p.col, message);
  };
  const firstError = doc.errors[0];
  if (firstError) {
    const p = lines.linePos(firstError.pos[0]);
    throw new ConfigError(file, p.line, p.col, `not valid YAML: ${firstError.message.split("\n")[0]}`);
  }
  const config: CliConfig = { ...DEFAULT_CONFIG, ignore: [], positions: {} };
  const root = doc.contents;
  if (root === null || (isScalar(root) && root.value === null)) return config;
  if (!isMap(root)) return fail(root, "the config must be a mapping of keys, such as 'out: output'");
  for (const item of root.items) {
    const keyNode = item.key as Node;
    const key = isScalar(keyNode) ? String(keyNode.value) : "";
    const value = item.value as Node | null;
    if (!Object.hasOwn(CONFIG_SCHEMA, key)) {
      const near = nearest(key, Object.keys(CONFIG_SCHEMA), 3);
      return fail(keyNode, `unknown key '${key}'${near ? `; did you mean '${near}'?` : ""} Expected one of ${Object.keys(CONFIG_SCHEMA).join(", ")}`);
    }
    const place = at(value ?? keyNode);
    config.positions[key] = { line: place.line, column: place.col };
    const rule = CONFIG_SCHEMA[key as keyof typeof CONFIG_SCHEMA];
    const scalar = isScalar(value) ? value.value : undefined;
    switch (rule.type) {
      case "path":
      case "semver": {
        if (typeof scalar !== "string" || scalar.trim() === "") return fail(value ?? keyNode, `'${key}' must be a non-empty string (${rule.doc})`);
        if (rule.type === "semver" && !SEMVER.test(scalar)) return fail(value, `'${key}' must be a semantic version such as 1.2.0, got '${scalar}'`);
        if (key === "skeleton" && !scalar.endsWith(".ts")) return fail(value, `'skeleton' must name a .ts file, got '${scalar}'`);
        (config as unknown as Record<string, string>)[key] = scalar;
        break;
      }
      case "boolean":
        if (typeof scalar !== "boolean") return fail(value ?? keyNode, `'${key}' must be true or false`);
        (config as unknown as Record<string, boolean>)[key] = scalar;
        break;
      case "ignore":
        config.ignore = readIgnore(value, fail, at);
        break;
      case "packages":
        config.packages = readPackages(value, fail);
        break;
      case "metadata":
        config.packageMetadata = readMetadata(value, fail);
        break;
      case "choice":
        if (typeof scalar !== "string" || !(rule.values as readonly string[]).includes(scalar)) {
          return fail(value ?? keyNode, `'${key}' must be one of ${rule.values.join(", ")} (${rule.doc})`);
        }
        (config as unknown as Record<string, string>)[key] = scalar;
        break;
    }
  }
  return config;
}

/** The members of the config's `package` key, each checked against what npm takes for it. */
export const METADATA_KEYS = ["license", "author", "homepage", "repository", "keywords", "private", "publishConfig"] as const;

function readMetadata(value: Node | null, fail: (node: Node | null | undefined, message: string) => never): PackageMetadata {
  if (!isMap(value)) return fail(value, "'package' must be a mapping such as {license: MIT, repository: 'github:acme/api'}");
  const out: PackageMetadata = {};
  for (const item of value.items) {
    const k = isScalar(item.key) ? String(item.key.value) : "";
    const v = item.value as Node | null;
    const plain = v === null ? undefined : (v as Node & { toJSON(): unknown }).toJSON();
    const isStringMap = (x: unknown) => x !== null && typeof x === "object" && !Array.isArray(x) && Object.values(x).every((y) => typeof y === "string" || typeof y === "boolean");
    switch (k) {
      case "license":
      case "author":
      case "homepage":
        if (typeof plain !== "string" || plain === "") return fail(v ?? (item.key as Node), `'package.${k}' must be a non-empty string`);
        out[k] = plain;
        break;
      case "repository":
        if (typeof plain === "string" && plain !== "") out.repository = plain;
        else if (isStringMap(plain) && typeof (plain as { url?: unknown }).url === "string") out.repository = plain as { type: string; url: string };
        else return fail(v ?? (item.key as Node), "'package.repository' must be a string ('github:acme/api') or {type, url, directory}");
        break;
      case "keywords":
        if (!Array.isArray(plain) || !plain.every((x) => typeof x === "string")) return fail(v ?? (item.key as Node), "'package.keywords' must be a list of strings");
        out.keywords = plain as string[];
        break;
      case "private":
        if (typeof plain !== "boolean") return fail(v ?? (item.key as Node), "'package.private' must be true or false");
        out.private = plain;
        break;
      case "publishConfig":
        if (!isStringMap(plain)) return fail(v ?? (item.key as Node), "'package.publishConfig' must be a mapping such as {access: public, registry: 'https://npm.example/'}");
        out.publishConfig = plain as Record<string, string | boolean>;
        break;
      default: {
        const near = nearest(k, METADATA_KEYS, 3);
        return fail(item.key as Node, `unknown key '${k}' in 'package'${near ? `; did you mean '${near}'?` : ""} Expected one of ${METADATA_KEYS.join(", ")}`);
      }
    }
  }
  return out;
}

function readPackages(value: Node | null, fail: (node: Node | null | undefined, message: string) => never): NonNullable<CliConfig["packages"]> {
  if (!isMap(value)) return fail(value, "'packages' must be a mapping such as {types: {name: '@acme/platform-types'}}");
  const out: NonNullable<CliConfig["packages"]> = {};
  for (const item of value.items) {
    const kind = isScalar(item.key) ? String(item.key.value) : "";
    if (!(PACKAGE_KINDS as readonly string[]).includes(kind)) return fail(item.key as Node, `unknown package '${kind}', expected one of ${PACKAGE_KINDS.join(", ")}`);
    const entry = item.value as Node | null;
    if (!isMap(entry)) return fail(entry ?? (item.key as Node), `'packages.${kind}' must be a mapping such as {name: '@acme/platform-${kind}'}`);
    for (const field of entry.items) {
      const k = isScalar(field.key) ? String(field.key.value) : "";
      const v = field.value as Node | null;
      if (k !== "name") return fail(field.key as Node, `unknown key '${k}' in 'packages.${kind}', expected name`);
      const name = isScalar(v) ? v.value : undefined;
      if (typeof name !== "string" || name.length > 214 || !PACKAGE_NAME.test(name)) return fail(v ?? (field.key as Node), `'packages.${kind}.name' must be an npm package name such as @acme/platform-${kind}, got '${String(name)}'`);
      out[kind as (typeof PACKAGE_KINDS)[number]] = name;
    }
  }
  return out;
}

function readIgnore(
  value: Node | null,
  fail: (node: Node | null | undefined, message: string) => never,
  at: (node: Node | null | undefined) => { line: number; col: number },
): IgnoreRule[] {
  if (!isSeq(value)) return fail(value, "'ignore' must be a list of {code, method | resource | line}");
  return value.items.map((entry) => {
    const node = entry as Node;
    if (!isMap(node)) return fail(node, "an 'ignore' entry must be a mapping such as {code: missing-scope, method: tasks.task.get}");
    const rule: Partial<IgnoreRule> = {};
    for (const item of node.items) {
      const k = isScalar(item.key) ? String(item.key.value) : "";
      const v = item.value as Node | null;
      const s = isScalar(v) ? v.value : undefined;
      if (k === "code") {
        if (typeof s !== "string" || !isDiagnosticCode(s)) return fail(v ?? (item.key as Node), `'code' must be a diagnostic code such as missing-scope, got '${String(s)}'`);
        if (severityOf(s) !== "warning") return fail(v, `'${s}' is an error: an ignore rule silences warnings only`);
        rule.code = s;
      } else if (k === "method" || k === "resource") {
        if (typeof s !== "string" || s === "") return fail(v ?? (item.key as Node), `'${k}' must be a name`);
        rule[k] = s;
      } else if (k === "line") {
        if (typeof s !== "number" || !Number.isInteger(s) || s < 1) return fail(v ?? (item.key as Node), "'line' must be a line number (1 or more)");
        rule.line = s;
      } else {
        return fail(item.key as Node, `unknown key '${k}' in an 'ignore' entry, expected code, method, resource, line`);
      }
    }
    if (!rule.code) return fail(node, "an 'ignore' entry needs a 'code'");
    if (!rule.method && !rule.resource && rule.line === undefined) {
      return fail(node, "an 'ignore' entry needs a 'method', a 'resource' or a 'line' besides its code, so that it silences one warning, not all");
    }
    const p = at(node);
    return { ...rule, code: rule.code, at: { line: p.line, column: p.col } };
  });
}
