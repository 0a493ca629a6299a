import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import type { OpenAPIV3 } from "openapi-types";
import { afterAll, describe, expect, it } from "vitest";
import type { Model } from "../../generator/model/types.js";
import { ROOT } from "../helpers.js";
import { divergences } from "../real-docs/divergences.js";
import { realResponses } from "../support/real-docs.js";

/**
 * Every real response of a method the spec describes must pass the generated OpenAPI response schema and the
 * generated TypeScript result type, except where the spec and the example disagree (listed, with reasons, in
 * real-docs/divergences.ts).
 */
const model = JSON.parse(readFileSync(join(ROOT, "output/model.json"), "utf8")) as Model;
const described = realResponses().filter((r) => model.methods.some((m) => m.name === r.method && m.version === r.version && m.described));
const dir = mkdtempSync(join(tmpdir(), "crc-real-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("real responses from the platform's documentation", () => {
  it("cover the described methods", () => {
    expect(described.length).toBe(29);
    expect(new Set(described.map((r) => `${r.version}:${r.method}`)).size).toBe(28);
  });

  it("pass the OpenAPI response schemas, but for the listed divergences", async () => {
    const failures: Record<string, string[]> = {};
    for (const version of ["legacy", "v3"] as const) {
      const doc = (await SwaggerParser.dereference(join(ROOT, `output/openapi/openapi.${version}.json`))) as OpenAPIV3.Document;
      const ajv = new Ajv({ strict: false, allErrors: true });
      addFormats.default(ajv);
      for (const r of described.filter((x) => x.version === version)) {
        const op = doc.paths[`/${r.method}`]?.post;
        const schema = ((op?.responses["200"] as OpenAPIV3.ResponseObject).content?.["application/json"]?.schema ?? {}) as object;
        const validate = ajv.compile(schema);
        if (!validate(r.body)) failures[r.file] = [...new Set((validate.errors ?? []).map((e) => e.instancePath))].sort();
      }
    }
    const expected = Object.fromEntries(divergences.filter((d) => d.schema.length > 0).map((d) => [d.file, [...d.schema].sort()]));
    expect(failures).toEqual(expected);
  });

  it("satisfy the generated result types, but for the listed divergences", () => {
    const files: string[] = [];
    for (const [i, r] of described.entries()) {
      const name = `r${i}.ts`;
      const map = r.version === "v3" ? "V3Methods" : "LegacyMethods";
      writeFileSync(
        join(dir, name),
        `import type { Envelope, ${map} } from "collab-platform-api-types";\n// ${r.file}\nexport const response = ${JSON.stringify(r.body, null, 2)} satisfies Envelope<${map}[${JSON.stringify(r.method)}]["result"]>;\n`,
      );
      files.push(name);
    }
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: "NodeNext",
          moduleResolution: "NodeNext",
          target: "ES2022",
          types: [],
          paths: { "collab-platform-api-types": [join(ROOT, "output/types/index.d.ts")] },
        },
        files,
      }),
    );
    const r = spawnSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], { cwd: dir, encoding: "utf8" });
    const failing = new Set([...r.stdout.matchAll(/^(r\d+)\.ts\(/gm)].map((m) => described[Number(m[1]?.slice(1))]?.file));
    expect([...failing].sort()).toEqual(divergences.filter((d) => d.types).map((d) => d.file).sort());
  });

  it("lists each divergence with a reason", () => {
    for (const d of divergences) expect(d.reason.length).toBeGreaterThan(40);
  });
});
