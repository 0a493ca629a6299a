import type { OpenAPIV3 } from "openapi-types";
import { fromOtherInput, onReferencePage, sectionAnchorAt } from "../../model/sections.js";
import { methodAndParamGaps } from "../../model/questions.js";
import type { Field, Method, MethodError, Model, ResultSpec, Version, Source } from "../../model/view.js";
import { NOT_SHOWN_NOTE, type Schema, fieldSchema, refTo, typeSchema } from "./schema.js";
import { words } from "../prose.js";

/**
 * Emits one OpenAPI 3.0.3 document per API version from the model (docs/contracts.md, "OpenAPI documents"):
 * a path per method keyed `/<method name>`, a `post` operation (and a `get` twin for 3.0 methods without
 * parameters), envelope responses, error responses, the `x-` extensions, and the resources as components.
 */

export interface OpenApiOptions {
  version: string;
  specPath: string;
  generator: string;
}

const ORDINAL = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const sortedObject = <T>(entries: Array<[string, T]>): Record<string, T> =>
  Object.fromEntries([...entries].sort(([a], [b]) => ORDINAL(a, b)));

const IDEMPOTENCY_HEADER = "IdempotencyKey";


/** The request body: one property per parameter, `required` exactly the `*` ones, constraints as anyOf/oneOf. */
function requestSchema(model: Model, m: Method): OpenAPIV3.SchemaObject {
  if (!m.described) {
    return { type: "object", additionalProperties: true, description: "The spec names this method without its parameters." };
  }
  // Made from entries, not assigned: a parameter named `__proto__` is a property like any other, not the prototype.
  const s: OpenAPIV3.SchemaObject = { type: "object", properties: Object.fromEntries(m.params.map((p) => [p.name, paramSchema(model, m, p)])) };
  const required = m.params.filter((p) => p.required).map((p) => p.name);
  if (required.length > 0) s.required = required;
  const atLeastOne = m.constraints.filter((c) => c.kind === "at-least-one");
  const forms = m.constraints.find((c) => c.kind === "call-forms");
  const all: Schema[] = atLeastOne.map((c) => ({ anyOf: c.params.map((p) => ({ required: [p] })) }));
  // Any one complete form: the spec does not make the forms exclude each other (D8).
  if (forms && forms.kind === "call-forms") all.push({ anyOf: forms.forms.map((f) => ({ required: f })) });
  if (all.length === 1) Object.assign(s, all[0]);
  else if (all.length > 1) s.allOf = all;
  const notes = m.constraints.map((c) => c.text);
  if (notes.length > 0) s.description = notes.join(" ");
  return s;
}

/**
 * A parameter's schema; a type read from another input than the method (the spec's "not shown" typed from a page,
 * D24) names that input beside it (D29), as a result read so does on its response.
 */
function paramSchema(model: Model, m: Method, p: Field): Schema {
  const s = fieldSchema(p);
  if (!fromOtherInput(model, m.source, p.typeSource)) return s;
  // Beside a bare `$ref`, OpenAPI 3.0 ignores every other member: the reference goes into an allOf.
  const out: Record<string, unknown> = { ...("$ref" in s && Object.keys(s).length === 1 ? { allOf: [s] } : s) };
  out["x-source"] = xSource(model, p.typeSource);
  return out as Schema;
}

function resultSchema(r: ResultSpec | null): Schema {
  if (!r) return { description: "The spec does not state the result." };
  let value = typeSchema(r.type);
  if (r.mayBeEmptyArray) value = { anyOf: [value, { type: "array", maxItems: 0, items: {} }] };
  const described = (s: Schema): Schema => ("$ref" in s ? { allOf: [s], description: words(r.description) } : { ...s, description: words(r.description) });
  if (r.key === null) return r.type.kind === "unknown" ? { description: `${NOT_SHOWN_NOTE} ${words(r.description)}` } : described(value);
  return { type: "object", required: [r.key], properties: { [r.key]: value }, description: words(r.description) };
}

function errorStatusKey(e: MethodError): string[] {
  if (e.status !== null) return [String(e.status)];
  if (e.statuses.length > 0) return e.statuses.map(String);
  if (e.statusClass) return [e.statusClass.toUpperCase()];
  return [];
}

function errorResponses(m: Method, version: Version): Record<string, OpenAPIV3.ResponseObject> {
  const byStatus = new Map<string, MethodError[]>();
  for (const e of m.errors) for (const k of errorStatusKey(e)) byStatus.set(k, [...(byStatus.get(k) ?? []), e]);
  const body = refTo(version === "v3" ? "V3Error" : "LegacyError");
  const out: Array<[string, OpenAPIV3.ResponseObject]> = [];
  for (const [status, errors] of byStatus) {
    if (status === "200") continue;
    const codes = [...new Set(errors.map((e) => (e.code === null ? "(code not given)" : e.code === "" ? "(empty code)" : e.code)))];
    out.push([status, { description: `Error: ${codes.join(", ")}.`, content: { "application/json": { schema: body } } }]);
  }
  // "System errors (may answer any method)": every operation can answer them, in the 4xx and 5xx ranges.
  for (const range of ["4XX", "5XX"]) {
    if (byStatus.has(range)) continue;
    out.push([range, { description: "A system or authorization error of the error catalogue (top-level `x-errors`).", content: { "application/json": { schema: body } } }]);
  }
  return sortedObject(out);
}

function xErrors(model: Model, m: Method): Array<{ status: number | null; code: string | null; text: string | null; "x-source"?: Record<string, string> }> {
  // An error a page adds where the spec leaves the method's errors open (D24) names its input (D29).
  return m.errors.map((e) => ({ status: e.status, code: e.code, text: words(e.text), ...(fromOtherInput(model, m.source, e.source) ? { "x-source": xSource(model, e.source) } : {}) }));
}

function operation(model: Model, m: Method, version: Version, opts: { get: boolean; alias?: string }): OpenAPIV3.OperationObject {
  const name = opts.alias ?? m.name;
  const gaps = methodAndParamGaps(model, m);
  const description = [
    m.description,
    m.access ? `Who may call: ${words(m.access.text)}` : "",
    m.scopeNote ? `Scope: ${words(m.scopeNote)}.` : "",
    ...m.notes.map((n) => n.text),
    gaps.length > 0 ? `Not shown in the spec: ${gaps.map((g) => g.subject).join("; ")}.` : "",
  ]
    .filter(Boolean)
    .join("\n\n");
  const op: OpenAPIV3.OperationObject & Record<string, unknown> = {
    operationId: opts.get ? `${name}:get` : name,
    summary: name,
    ...(description ? { description } : {}),
    tags: [m.area || "Named methods"],
    responses: {},
  };
  if (m.deprecated) {
    op.deprecated = true;
    op["x-replacement"] = m.deprecated.replacement;
  }
  if (version === "v3" && m.idempotencyKey) op.parameters = [{ $ref: `#/components/parameters/${IDEMPOTENCY_HEADER}` }];
  if (opts.get && version === "legacy" && m.params.length > 0) op.parameters = [...(op.parameters ?? []), ...queryParameters(model, m)];
  if (!opts.get) {
    const schema = requestSchema(model, m);
    op.requestBody = {
      required: m.params.some((p) => p.required),
      content: { "application/json": { schema } },
    };
  }
  op.responses = {
    "200": {
      description: "Success: the envelope with the method's result and the timing data.",
      ...(version === "v3" && m.idempotencyKey ? { headers: idempotencyResponseHeaders() } : {}),
      // D29: a result read from another input than the method (the spec's "not shown" answered by a page) names its own.
      ...(m.result && fromOtherInput(model, m.source, m.result.source) ? { "x-source": xSource(model, m.result.source) } : {}),
      content: {
        "application/json": {
          schema: {
            type: "object",
            required: ["result", "time"],
            // Members beyond `result` and `time` the input states (the reference's `total` and `next` of list
            // methods), as the types' `Envelope<R>` has them: optional.
            properties: { result: resultSchema(m.result), time: refTo("Time"), ...Object.fromEntries(envelopeExtras(model).map((f) => [f.name, envelopeMemberSchema(model, f)])) },
          },
        },
      },
    },
    ...errorResponses(m, version),
  };
  op["x-scopes"] = m.scopes;
  // Scopes a page names for a spec method whose scope the spec leaves unnamed (D24): their input (D29).
  if (fromOtherInput(model, m.source, m.scopesSource)) op["x-scopes-source"] = xSource(model, m.scopesSource);
  op["x-access"] = m.access?.who ?? null;
  op["x-application-context-only"] = m.applicationContextOnly;
  if (version === "v3" && m.idempotencyKey) op["x-idempotency-key"] = true;
  if (!m.described) op["x-described"] = false;
  if (opts.alias) op["x-alias-of"] = m.name;
  op["x-errors"] = xErrors(model, m);
  // contracts.md: where the spec leaves a method's errors open, `x-errors-open: true` beside the list.
  if (m.errorsOpen) op["x-errors-open"] = true;
  if (m.constraints.length > 0) {
    op["x-constraints"] = m.constraints.map((c) =>
      c.kind === "call-forms"
        ? { kind: c.kind, forms: c.forms }
        : c.kind === "required-unless"
          ? { kind: c.kind, params: c.params, unless: c.unless }
          : c.kind === "required-when"
            ? { kind: c.kind, params: c.params, condition: c.condition }
            : { kind: c.kind, params: c.params },
    );
  }
  // D29: the file and the section's anchor, no line, so that an edit above a method changes nothing here.
  op["x-source"] = xSource(model, m.source);
  return op;
}

/**
 * A legacy GET's parameters (D32): the query string in PHP's form, as the router reads it (`a[]=1&a[]=2` a list,
 * `o[k]=v` an object). The at-least-one and call-form rules of the POST body are the same call's: they stay in the
 * body's schema and in `x-constraints`, which OpenAPI 3.0 cannot say of query parameters.
 */
function queryParameters(model: Model, m: Method): OpenAPIV3.ParameterObject[] {
  return m.params.map((p): OpenAPIV3.ParameterObject => {
    const schema = paramSchema(model, m, p);
    if (p.type.kind === "array") return { name: `${p.name}[]`, in: "query", required: p.required, style: "form", explode: true, schema };
    if (p.type.kind === "object") return { name: p.name, in: "query", required: p.required, style: "deepObject", explode: true, schema };
    return { name: p.name, in: "query", required: p.required, schema };
  });
}

function idempotencyResponseHeaders(): Record<string, OpenAPIV3.HeaderObject> {
  return {
    "Idempotency-Key": { description: "The request's key, echoed when it was given.", schema: { type: "string" } },
    "Idempotent-Replayed": {
      description: "`true` only on a replay of a stored response.",
      schema: { type: "string", enum: ["true"] },
    },
  };
}

/** An envelope member's schema; read from the other input than the envelope (D29), it names its `x-source`. */
function envelopeMemberSchema(model: Model, f: Field): Schema {
  const s = fieldSchema(f);
  if (!model.envelope || !fromOtherInput(model, model.envelope.source, f.source) || "$ref" in s) return s;
  const withSource: Record<string, unknown> = { ...s, "x-source": xSource(model, f.source) };
  return withSource as Schema;
}

/** The envelope's members other than `result` and `time` (the reference's `total` and `next`); none in the spec's. */
function envelopeExtras(model: Model): Field[] {
  return model.envelope?.members.filter((f) => f.name !== "result" && f.name !== "time") ?? [];
}

function schemaOfFields(fields: Field[], description: string): OpenAPIV3.SchemaObject {
  return { ...(typeSchema({ kind: "object", members: fields }) as OpenAPIV3.SchemaObject), description };
}

function servers(version: Version): OpenAPIV3.ServerObject[] {
  const prefix = version === "v3" ? "/rest/api" : "/rest";
  const baseUrl = { default: "https://example.invalid", description: "The service address ({base_url} in the spec)." };
  return [
    {
      url: `{base_url}${prefix}/{user_id}/{webhook_code}`,
      description: "Incoming webhook: the secret code in the path.",
      variables: {
        base_url: baseUrl,
        user_id: { default: "1", description: "The user who created the webhook." },
        webhook_code: { default: "WEBHOOK_CODE", description: "The webhook's secret code (<WEBHOOK_CODE>): keep it out of logs." },
      },
    },
    {
      url: `{base_url}${prefix}`,
      description: "Application: the OAuth 2.0 access token in body member `auth`.",
      variables: { base_url: baseUrl },
    },
  ];
}

export function emitOpenApiDocument(model: Model, version: Version, opts: OpenApiOptions): Record<string, unknown> {
  const methods = model.methods.filter((m) => m.version === version && !m.wildcard);
  const paths: OpenAPIV3.PathsObject = {};
  for (const m of methods) {
    const names = [m.name, ...m.aliases];
    for (const [i, name] of names.entries()) {
      const alias = i === 0 ? undefined : name;
      const item: OpenAPIV3.PathItemObject = { post: operation(model, m, version, { get: false, ...(alias ? { alias } : {}) }) };
      if (m.httpMethods.includes("GET")) item.get = operation(model, m, version, { get: true, ...(alias ? { alias } : {}) });
      paths[`/${name}`] = item;
    }
  }
  const areas = [...new Set(methods.map((m) => m.area || "Named methods"))];
  const schemas: Array<[string, Schema]> = model.resources.map((r) => {
    const s = typeSchema(r.type);
    const description = [r.title, r.description, ...r.typingRules.map((t) => t.text), ...r.notes.map((n) => n.text)]
      .filter(Boolean)
      .join(" ");
    const extra = { ...(r.fieldScopes ? { "x-field-scopes": r.fieldScopes } : {}), ...(r.memberName ? { "x-member-name": r.memberName } : {}) };
    return [r.name, "$ref" in s ? { allOf: [s], description, ...extra } : { ...s, description, ...extra }];
  });
  if (model.envelope) {
    schemas.push(["Time", schemaOfFields(model.envelope.time, "Object `time`: timing data of every response.")]);
    schemas.push(["LegacyError", { ...schemaOfFields(model.envelope.legacyErrorBody, "Legacy error body."), additionalProperties: true }]);
  }
  const v3Body = model.envelope?.v3ErrorBody;
  if (model.envelope && v3Body) {
    const at = v3Body[0]?.source;
    // Read from the reference's include where the envelope is the spec's (a model of both inputs, D29).
    schemas.push(["V3Error", { ...schemaOfFields(v3Body, "Body of 3.0 error responses."), ...(fromOtherInput(model, model.envelope.source, at) ? { "x-source": xSource(model, at) } : {}) }]);
  } else schemas.push(["V3Error", { description: `Body of 3.0 error responses. ${NOT_SHOWN_NOTE}` }]);
  const title = model.title;
  const doc: Record<string, unknown> = {
    "x-generated": `Generated by ${opts.generator} from ${opts.specPath}. Do not edit.`,
    openapi: "3.0.3",
    info: {
      title,
      version: opts.version,
      description: [
        version === "v3" ? "Version 3.0 methods (paths under `/rest/api/`)." : "Legacy methods (paths under `/rest/`).",
        ...model.intro.map((s) => s.text),
      ].join("\n\n"),
    },
    servers: servers(version),
    tags: areas.map((a) => ({
      name: a,
      description: a === "Named methods" ? "Methods the spec names without describing them." : `Methods of the spec's section '${a}'.`,
    })),
    paths,
    components: {
      schemas: sortedObject(schemas),
      ...(version === "v3" && methods.some((m) => m.idempotencyKey)
        ? {
            parameters: {
              [IDEMPOTENCY_HEADER]: {
                name: "Idempotency-Key",
                in: "header",
                required: false,
                description: idempotencyDescription(model),
                schema: idempotencyKeySchema(model),
              },
            },
          }
        : {}),
    },
    "x-errors": model.errors.catalogue.map((e) => ({
      kind: e.kind,
      status: e.status,
      ...(e.kind === "system" ? { altStatus: e.altStatus } : {}),
      code: e.code,
      text: e.text,
      cause: e.cause,
      ...(e.variants ? { variants: e.variants } : {}),
    })),
    // The platform's list of scopes, where an input has one (the reference's "Available Scopes" page).
    ...(model.scopeList && model.scopeList.length > 0
      ? {
          "x-scope-list": model.scopeList.map((s) => ({ code: s.code, description: s.description, tool: s.tool, ...(s.deprecated ? { deprecated: true } : {}) })),
          "x-scope-list-source": xSource(model, model.scopeList[0]?.source ?? { file: model.specFile, line: 1, column: 1 }),
        }
      : {}),
    // The platform's request-rate limits per plan, where an input states them (the reference's limits.md).
    ...(model.requestRates && model.requestRates.length > 0
      ? {
          "x-request-rates": model.requestRates.map((r) => ({ plan: r.plan, perSecond: r.perSecond, burst: r.burst })),
          "x-request-rates-source": xSource(model, model.requestRates[0]?.source ?? { file: model.specFile, line: 1, column: 1 }),
        }
      : {}),
    // The widgets' placements the reference's pages describe: the codes `placement.bind` takes and what
    // `PLACEMENT_OPTIONS` holds once parsed (a JSON string in the handler's request), a page each.
    ...(version === "legacy" && model.placements && model.placements.length > 0
      ? {
          "x-placements": model.placements.map((p) => ({ codes: p.codes, title: p.title, description: p.description, scopes: p.scopes, options: schemaOfFields(p.options, `What PLACEMENT_OPTIONS holds for ${p.codes.join(", ")}.`), "x-source": xSource(model, p.source) })),
        }
      : {}),
    // The events the reference's pages type (OpenAPI 3.0 has no webhooks): what each handler receives, by the code
    // it gets in `event`, as a schema; the mock makes a delivered event's data from it.
    ...(version === "legacy" && model.eventPayloads && model.eventPayloads.length > 0
      ? {
          "x-events": Object.fromEntries(
            [...model.eventPayloads]
              .sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0))
              .map((e) => [e.code, { name: e.name, description: e.description, scopes: e.scopes, payload: schemaOfFields(e.fields, `What the handler of ${e.name} receives.`), "x-source": xSource(model, e.source) }]),
          ),
        }
      : {}),
    "x-method-families": model.methods
      .filter((m) => m.version === version && m.wildcard)
      .map((m) => {
        return { name: m.name, "x-source": xSource(model, m.source) };
      }),
  };
  return doc;
}

/** The `Idempotency-Key` as the spec states it: its bounds and charset only where the spec gives them. */
function idempotencyKeySchema(model: Model): OpenAPIV3.SchemaObject {
  const { keyLength, printableAscii } = model.platform.idempotency;
  const length = keyLength.source ? keyLength.value : { min: null, max: null };
  return {
    type: "string",
    ...(length.min !== null ? { minLength: length.min } : {}),
    ...(length.max !== null ? { maxLength: length.max } : {}),
    ...(printableAscii.source && printableAscii.value ? { pattern: "^[\\x20-\\x7E]+$" } : {}),
  };
}

function idempotencyDescription(model: Model): string {
  const { keyLength, rules } = model.platform.idempotency;
  return [keyLength.source ? `${words(keyLength.value.text)}.` : "", ...rules.map((r) => words(r.text))].filter(Boolean).join(" ");
}

/**
 * Where a method was read (D29): the spec file and its section's anchor, no line; or, in a model that holds the
 * platform's reference, the page's file and which input it is (`input: "reference"`, or `"spec"` beside it).
 */
function xSource(model: Model, at: Source): Record<string, string> {
  if (onReferencePage(model, at)) return { file: at.file, input: "reference" };
  const anchor = sectionAnchorAt(model, at.line);
  return { file: model.specFile, ...(anchor ? { anchor } : {}), ...(model.publicPages ? { input: "spec" } : {}) };
}
