import { DEFAULT_PACKAGES } from "../options.js";
import { CONFIG_SCHEMA, DEFAULT_CONFIG, DEFAULT_CONFIG_FILE } from "./config.js";

/**
 * The config's JSON Schema, for editors (`# yaml-language-server: $schema=…`): built from `CONFIG_SCHEMA`, the table
 * the CLI validates by, so the two cannot drift. Shipped as `collab-rest-codegen/config.schema.json`
 * (`templates/config.schema.json`; a test keeps the file equal to what this returns).
 */
export function configJsonSchema(): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [key, rule] of Object.entries(CONFIG_SCHEMA)) {
    const described = { description: rule.doc };
    switch (rule.type) {
      case "path":
        properties[key] = { ...described, type: "string", minLength: 1, ...(key === "skeleton" ? { pattern: "\\.ts$" } : {}) };
        break;
      case "semver":
        properties[key] = { ...described, type: "string", pattern: "^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-[0-9A-Za-z.-]+)?(?:\\+[0-9A-Za-z.-]+)?$" };
        break;
      case "boolean":
        properties[key] = { ...described, type: "boolean" };
        break;
      case "choice":
        properties[key] = { ...described, enum: [...rule.values] };
        break;
      case "packages": {
        const name = { type: "string", maxLength: 214, pattern: "^(?:@[a-z0-9-~][a-z0-9-._~]*/)?[a-z0-9-~][a-z0-9-._~]*$" };
        const entry = { type: "object", additionalProperties: false, properties: { name } };
        properties[key] = { ...described, type: "object", additionalProperties: false, properties: { types: entry, client: entry, server: entry } };
        break;
      }
      case "metadata":
        properties[key] = {
          ...described,
          type: "object",
          additionalProperties: false,
          properties: {
            license: { type: "string", minLength: 1 },
            author: { type: "string", minLength: 1 },
            homepage: { type: "string", minLength: 1 },
            repository: {
              anyOf: [
                { type: "string", minLength: 1 },
                { type: "object", required: ["url"], properties: { type: { type: "string" }, url: { type: "string" }, directory: { type: "string" } }, additionalProperties: false },
              ],
            },
            keywords: { type: "array", items: { type: "string" } },
            private: { type: "boolean" },
            publishConfig: { type: "object", additionalProperties: { type: ["string", "boolean"] } },
          },
        };
        break;
      case "ignore":
        properties[key] = {
          ...described,
          type: "array",
          items: {
            type: "object",
            additionalProperties: false,
            required: ["code"],
            properties: { code: { type: "string" }, method: { type: "string", minLength: 1 }, resource: { type: "string", minLength: 1 }, line: { type: "integer", minimum: 1 } },
            anyOf: [{ required: ["method"] }, { required: ["resource"] }, { required: ["line"] }],
          },
        };
        break;
    }
  }
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    $id: "collab-rest-codegen/config.schema.json",
    title: `${DEFAULT_CONFIG_FILE} of collab-rest-codegen`,
    type: "object",
    additionalProperties: false,
    properties,
  };
}

/**
 * The config `init` writes: every key, commented, with its default, and the repository's own `spec` and `out`
 * (relative to the config's folder). The schema line names the shipped schema by a path from the config's folder,
 * which is how the YAML language server resolves it (it does not read package exports).
 */
export function initialConfig(where: { spec?: string; out?: string; schema?: string } = {}): string {
  return [
    `# yaml-language-server: $schema=${where.schema ?? "./node_modules/collab-rest-codegen/templates/config.schema.json"}`,
    "# The config of collab-rest-codegen. Every key but spec is optional; the values below are the defaults.",
    "",
    `# ${CONFIG_SCHEMA.spec.doc}`,
    `spec: ${where.spec ?? DEFAULT_CONFIG.spec}`,
    `# ${CONFIG_SCHEMA.out.doc}`,
    `out: ${where.out ?? DEFAULT_CONFIG.out}`,
    `# ${CONFIG_SCHEMA.version.doc}`,
    "# version: 0.1.0",
    `# ${CONFIG_SCHEMA.templates.doc}`,
    "# templates: templates",
    `# ${CONFIG_SCHEMA.skeleton.doc}`,
    "# skeleton: output/server/skeleton/handlers.ts",
    `# ${CONFIG_SCHEMA.cache.doc}`,
    "# cache: .tmp/codegen-cache",
    `# ${CONFIG_SCHEMA.docs.doc}`,
    "# docs: spec-source/platform-docs",
    `# ${CONFIG_SCHEMA.ignore.doc}`,
    "# ignore:",
    "#   - code: missing-scope",
    "#     method: event.unbind",
    `# ${CONFIG_SCHEMA.failOnWarnings.doc}`,
    `failOnWarnings: ${DEFAULT_CONFIG.failOnWarnings}`,
    `# ${CONFIG_SCHEMA.v3ErrorPrefix.doc}: spec (SERVICE_REST_V3_EXCEPTION_*) or platform (BITRIX_REST_V3_EXCEPTION_*)`,
    `v3ErrorPrefix: ${DEFAULT_CONFIG.v3ErrorPrefix}`,
    `# ${CONFIG_SCHEMA.packages.doc}; the defaults below`,
    "# packages:",
    ...(["types", "client", "server"] as const).flatMap((k) => [`#   ${k}:`, `#     name: ${DEFAULT_PACKAGES[k]}`]),
    `# ${CONFIG_SCHEMA.package.doc}`,
    "# package:",
    "#   license: MIT",
    "#   repository: github:acme/platform-api",
    "#   publishConfig:",
    "#     access: public",
    `# ${CONFIG_SCHEMA.breakingWhileZero.doc}: minor (semver's 0.x rule, npm's caret ranges) or major`,
    `breakingWhileZero: ${DEFAULT_CONFIG.breakingWhileZero}`,
    `# ${CONFIG_SCHEMA.legacyGet.doc}`,
    `legacyGet: ${DEFAULT_CONFIG.legacyGet}`,
    "",
  ].join("\n");
}
