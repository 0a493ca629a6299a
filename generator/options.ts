import type { FrontEnd } from "./frontends/index.js";
import type { FragmentCache, InputSource } from "./source/index.js";

/** Options of a run, with their defaults in this one place. */
export interface GenerateOptions {
  /** The spec's path as it appears in positions, headers and the manifest (relative, `/` separators). */
  specPath: string;
  /**
   * The packages' version at the first generation, and a floor later (docs/decisions.md D3); default `0.1.0`. Later
   * generations bump the previous one by the diff of the models.
   */
  version?: string;
  /**
   * The front ends to ask, in order (frontends/index.ts): a dialect of the caller's own is a row put before this
   * generator's `FRONT_ENDS`. Default: this generator's.
   */
  frontEnds?: readonly FrontEnd[];
  /**
   * The platform's reference beside the spec (issue 29, decisions.md D24): one model, the spec's methods as the spec
   * says them and every other documented method from the reference.
   */
  docs?: InputSource;
  /**
   * What earlier runs printed (emit/memo.ts): entries in, this run's in `next` for the caller to keep (the CLI keeps
   * them in the config's `cache` folder). It saves a rerun time and never changes its output.
   */
  printMemo?: FragmentCache;
  /** The previous generation (its `model.json`, changelogs and file hashes); absent on a first generation. */
  previous?: Previous;
  /**
   * What a breaking change bumps while the major version is 0 (decisions.md D22): `minor` (default), as semver's
   * 0.x rule and npm's caret ranges read it (`^0.1.0` takes 0.1.x only), or `major`.
   */
  breakingWhileZero?: "minor" | "major";
  /**
   * Legacy methods take GET with query parameters as well as POST (decisions.md D32). Default true: the spec's
   * addressing table shows POST, and the platform's reference on calling the API says simple requests may be sent
   * by GET (https://apidocs.bitrix24.com/settings/how-to-call-rest-api/general-principles.html). The router, the
   * mock and the OpenAPI documents follow the model's verbs; false refuses a legacy GET with the verb error.
   */
  legacyGet?: boolean;
  generatorName: string;
  generatorVersion: string;
  /** Template texts by path below `templates/` (`client/README.md.hbs`); the CLI loads them. */
  templates: Readonly<Record<string, string>>;
  /**
   * The compiled runtimes by path below `dist/shipped-runtime/` (`client/index.js`), and the client's shape
   * declarations as written (`source/client/shape.*`); `loadRuntime()` (exported) reads them from this package.
   */
  runtime: Readonly<Record<string, string>>;
  /**
   * The prefix of the 3.0 error codes (decisions.md D11): `spec` (default), the spec's `SERVICE_REST_V3_EXCEPTION_*`,
   * or `platform`, the platform's `BITRIX_REST_V3_EXCEPTION_*` that its documentation and official SDKs use. The
   * types, the OpenAPI documents, the client and the server all follow it.
   */
  v3ErrorPrefix?: "spec" | "platform";
  /** Names of the generated packages. */
  packages?: { types: string; client: string; server: string };
  /** What the three packages are published with (license, repository, …): the config's `package` key. */
  packageMetadata?: PackageMetadata;
  /** Run prettier over generated code (default true); property tests turn it off to run thousands of times. */
  format?: boolean;
  /**
   * The templates the user replaced (`--templates`): the code they render is formatted with prettier. The built-in
   * templates and the generator's own printers write their final layout, which nothing formats again. Default:
   * every template counts as replaced, so a caller that passes its own texts without saying so still gets
   * formatted code.
   */
  customTemplates?: readonly string[];
  /** Path of the user-owned handler skeleton, relative to the output folder (`/` separators, may start `../`). */
  skeletonPath?: string;
  /**
   * `server`: emit the server package only (and the OpenAPI documents it is made from, without their YAML twins):
   * what `collab-rest-codegen mock` serves, made in about half the time. The files are not a whole output folder.
   */
  only?: "server";
  /** Formats generated code; default: prettier in this thread. The CLI passes one that runs on a worker thread. */
  formatter?: (files: Array<{ path: string; contents: string }>) => Promise<Array<{ path: string; contents: string }>>;
}

export const DEFAULT_PACKAGES = {
  types: "collab-platform-api-types",
  client: "collab-platform-api-client",
  server: "collab-platform-api-server",
} as const;

export const GENERATOR_NAME = "collab-rest-codegen";

/**
 * What a team publishes its packages with (the config's `package` key, issue 25): the same members in the three
 * generated `package.json` files, so that nobody edits them (an edited one is kept, and its version then froze).
 */
export interface PackageMetadata {
  license?: string;
  author?: string;
  homepage?: string;
  repository?: string | { type: string; url: string; directory?: string };
  keywords?: string[];
  private?: boolean;
  publishConfig?: Record<string, string | boolean>;
}

/** The previous generation as the CLI found it: `model.json`'s text (the output folder's, or `--previous`). */
export interface Previous {
  modelJson: string;
  /** Each package's `CHANGELOG.md`, when there is one: its sections are kept. */
  changelogs?: Partial<Record<"types" | "client" | "server", string>>;
  /** The sha256 of each generated file, from the previous manifest: a generator upgrade that changes them is a patch. */
  fileHashes?: Record<string, string>;
}
