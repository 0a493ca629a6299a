import type { Model } from "./types.js";

/**
 * The prefix of the 3.0 error codes (decisions.md D11). The spec writes `SERVICE_REST_V3_EXCEPTION_*`; the
 * platform's documentation (`api-reference/rest-v3.md`) and its official SDKs use `BITRIX_REST_V3_EXCEPTION_*`, and
 * the SDKs branch on those codes. One generator option picks the prefix, and the types, the OpenAPI documents, the
 * client and the server all follow it, because they are all emitted from the model this returns.
 */
export const V3_ERROR_PREFIXES = { spec: "SERVICE_REST_V3_EXCEPTION_", platform: "BITRIX_REST_V3_EXCEPTION_" } as const;

export type V3ErrorPrefix = keyof typeof V3_ERROR_PREFIXES;

/** A 3.0 error code under the chosen prefix; any other code as it is. */
export function v3Code(code: string, prefix: V3ErrorPrefix): string {
  const from = V3_ERROR_PREFIXES.spec;
  return code.startsWith(from) ? `${V3_ERROR_PREFIXES[prefix]}${code.slice(from.length)}` : code;
}

/** The model with every 3.0 error code under the chosen prefix: the catalogue's and every method's. */
export function withV3ErrorPrefix(model: Model, prefix: V3ErrorPrefix): Model {
  if (prefix === "spec") return model;
  return {
    ...model,
    errors: { ...model.errors, catalogue: model.errors.catalogue.map((e) => ({ ...e, code: v3Code(e.code, prefix) })) },
    methods: model.methods.map((m) => ({ ...m, errors: m.errors.map((e) => (e.code === null ? e : { ...e, code: v3Code(e.code, prefix) })) })),
  };
}
