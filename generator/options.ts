/** Options of a run, with their defaults in this one place. */
export interface GenerateOptions {
  /** The spec's path as it appears in positions, headers and the manifest (relative, `/` separators). */
  specPath: string;
  /** `info.version` of the OpenAPI documents; default `0.0.0-spec.<12 hex digits of the spec's sha256>`. */
  version?: string;
  generatorName: string;
  generatorVersion: string;
}

export interface CliConfig {
  spec: string;
  out: string;
  version?: string;
  templates?: string;
}

export const DEFAULT_CONFIG_FILE = "codegen.config.yaml";
export const DEFAULT_CONFIG: CliConfig = {
  spec: "spec-source/collaboration-platform-api.md",
  out: "output",
};
export const GENERATOR_NAME = "collab-rest-codegen";
