// The published examples of the platform's reference as contracts (issue 29 item 3): every JSON example of every
// method page (the request bodies of the cURL tabs, the response and error blocks), read strictly where they are JSON
// and leniently where they are not (each quirk counted), and validated against the generated OpenAPI schemas of
// their method. Divergences are classified by what differs, with counts and three positions each.
//
//   node test/support/examples.mjs OUT_DIR     prints the figures for a generated folder (npm run generate:platform)
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const JSON5 = require("json5");
const { Ajv } = require("ajv");
const addFormats = require("ajv-formats");
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The examples of one page: `{ kind: "request" | "response" | "error", text, line }`, in page order. */
export function examplesOf(page) {
  const out = [];
  const lines = page.split("\n");
  let section = "";
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const h2 = /^##\s+(.*)$/.exec(line);
    if (h2) section = h2[1].trim().toLowerCase();
    const fence = /^(\s*)(```+|~~~+)\s*([\w-]*)/.exec(line);
    if (!fence) continue;
    const body = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      if (lines[j].trim().startsWith(fence[2])) break;
      body.push(lines[j].slice(Math.min(fence[1].length, lines[j].length - lines[j].trimStart().length)));
    }
    const lang = fence[3].toLowerCase();
    const text = body.join("\n");
    if (/code examples?/.test(section) && (lang === "bash" || lang === "shell" || lang === "sh") && /\bcurl\b/.test(text)) {
      // `-d '{…}'`: the request body of the cURL tab (single-quoted, as every tab writes it).
      const d = /-d\s+'([\s\S]*?)'\s*(?:\\\s*$|$)/m.exec(text);
      if (d) out.push({ kind: "request", text: d[1], line: i + 2 + text.slice(0, d.index).split("\n").length - 1, oauth: /\/rest\/(?:api\/)?[a-z]/i.test(text) && /"auth"\s*:/.test(d[1]) });
    } else if (lang === "json" && /response|returned data|successful/.test(section)) out.push({ kind: "response", text, line: i + 2 });
    else if (lang === "json" && /error/.test(section)) out.push({ kind: "error", text, line: i + 2 });
    i = j;
  }
  return out;
}

/** Strict JSON, else a lenient reading: `{ value, strict, quirks }`, or `{ value: undefined, quirks }` when unreadable. */
export function readExample(text) {
  try {
    return { value: JSON.parse(text), strict: true, quirks: [] };
  } catch {
    // The published examples' quirks, each counted: comments, `...` for "and so on", trailing commas, single quotes.
    const quirks = [];
    if (/^\s*\/\/|[^:"]\/\/\s|\/\*/m.test(text)) quirks.push("comment");
    if (/\.\.\./.test(text)) quirks.push("ellipsis");
    const cleaned = text
      .replace(/^\s*\.\.\.\s*,?\s*$/gm, "")
      .replace(/,\s*\.\.\.\s*(?=[\]}])/g, "")
      .replace(/(?<=[[{,]\s*)\.\.\.\s*(?=[\]},])/g, "")
      .replace(/"\s*:\s*\.\.\.\s*(?=[,}\n])/g, '": null');
    try {
      const value = JSON5.parse(cleaned);
      if (/,\s*[\]}]/.test(cleaned)) quirks.push("trailing comma");
      if (quirks.length === 0) quirks.push("other (JSON5)");
      return { value, strict: false, quirks };
    } catch {
      return { value: undefined, strict: false, quirks: [...quirks, "unreadable"] };
    }
  }
}

const pointer = (name) => `~1${name.replace(/~/g, "~0").replace(/\//g, "~1")}`;

/** Every example of every described method of a generated folder, validated; the figures and the divergences by kind. */
export function checkExamples(outDir, root = ROOT) {
  const model = JSON.parse(readFileSync(join(outDir, "model.json"), "utf8"));
  const docs = { legacy: JSON.parse(readFileSync(join(outDir, "openapi/openapi.legacy.json"), "utf8")), v3: JSON.parse(readFileSync(join(outDir, "openapi/openapi.v3.json"), "utf8")) };
  const ajv = new Ajv({ strict: false, allErrors: false });
  (addFormats.default ?? addFormats)(ajv);
  ajv.addSchema(docs.legacy, "legacy");
  ajv.addSchema(docs.v3, "v3");
  // The same documents with every object that lists its members closed to others: an accepted example that carries a
  // member its table does not list (a misread nesting, `{"template": {…}}` checked against the template's own open
  // object, passed) is counted and placed, though the generated schemas stay open, as the platform adds fields.
  const strictAjv = new Ajv({ strict: false, allErrors: false });
  (addFormats.default ?? addFormats)(strictAjv);
  strictAjv.addSchema(closed(docs.legacy), "legacy");
  strictAjv.addSchema(closed(docs.v3), "v3");
  const extra = {};
  const figures = {};
  const kinds = {};
  const quirks = {};
  const accepted = [];
  const count = (kind, key) => {
    figures[kind] ??= { examples: 0, strict: 0, lenient: 0, unreadable: 0, checked: 0, accepted: 0, strictAccepted: 0, closedAccepted: 0 };
    figures[kind][key]++;
  };
  for (const m of model.methods.filter((x) => x.described && x.source.file.includes("api-reference/"))) {
    const page = readFileSync(join(root, m.source.file), "utf8");
    const op = docs[m.version].paths[`/${m.name}`];
    if (!op) continue;
    const verb = op.post ? "post" : "get";
    const base = `${m.version}#/paths/${pointer(m.name)}/${verb}`;
    for (const ex of examplesOf(page)) {
      count(ex.kind, "examples");
      const read = readExample(ex.text);
      for (const q of read.quirks) quirks[q] = (quirks[q] ?? 0) + 1;
      if (read.value === undefined) {
        count(ex.kind, "unreadable");
        continue;
      }
      count(ex.kind, read.strict ? "strict" : "lenient");
      let schemaRef;
      let value = read.value;
      let bodyOnly = false;
      if (ex.kind === "request") {
        if (!op[verb].requestBody) continue;
        schemaRef = `${base}/requestBody/content/application~1json/schema`;
        // `auth` is the application's token in the body, the platform's transport and no parameter of the method.
        if (value && typeof value === "object" && !Array.isArray(value)) {
          const { auth: _auth, ...rest } = value;
          value = rest;
        }
      } else if (ex.kind === "response") {
        schemaRef = `${base}/responses/200/content/application~1json/schema`;
        // An example of the result alone (`{"item": {…}}` on the rpa pages, `{"id": 4, …}` on scrum's): no member
        // of the envelope at all, so it is checked against the result's schema, and the quirk is counted.
        if (value && typeof value === "object" && !Array.isArray(value) && !["result", "time", "error", "total", "next"].some((k) => k in value)) {
          schemaRef = `${schemaRef}/properties/result`;
          bodyOnly = true;
          quirks["the result without the envelope"] = (quirks["the result without the envelope"] ?? 0) + 1;
        }
      }
      else schemaRef = `${base}/responses/4XX/content/application~1json/schema`;
      const validate = ajv.getSchema(schemaRef) ?? ajv.compile({ $ref: schemaRef });
      count(ex.kind, "checked");
      if (validate(value)) {
        count(ex.kind, "accepted");
        if (read.strict) count(ex.kind, "strictAccepted");
        // The type-checked sample takes whole responses (the envelope's type is part of what it checks).
        if (ex.kind === "response" && read.strict && !bodyOnly) accepted.push({ method: m.name, version: m.version, body: value });
        const closedCheck = strictAjv.getSchema(schemaRef) ?? strictAjv.compile({ $ref: schemaRef });
        if (closedCheck(value)) count(ex.kind, "closedAccepted");
        else {
          const e = deepest(closedCheck.errors);
          const at = e?.keyword === "additionalProperties" ? `${e.instancePath}/${e.params.additionalProperty}` : (e?.instancePath ?? "");
          (extra[`${ex.kind}: ${e?.keyword === "additionalProperties" ? "a field absent from the table" : classify(e, value)}`] ??= []).push(`${m.source.file}:${ex.line} ${at}`);
        }
        continue;
      }
      // The deepest error: under a union every option's first error is listed, and the option that went furthest
      // into the example says what differs (the others fail at the union's own level).
      const e = deepest(validate.errors);
      const kind = `${ex.kind}: ${classify(e, value, ex.kind)}`;
      // A missing member's position is the member's own path, under the object that lacks it.
      const at = e?.keyword === "required" ? `${e.instancePath}/${e.params.missingProperty}` : e?.instancePath;
      (kinds[kind] ??= []).push(`${m.source.file}:${ex.line}${at ? ` ${at}` : ""}`);
    }
  }
  return { figures, kinds, quirks, accepted, extra };
}

/** The error deepest in the example: under a union, the option that went furthest says what differs. */
function deepest(errors) {
  return (errors ?? []).reduce((a, x) => (a === undefined || x.instancePath.split("/").length > a.instancePath.split("/").length ? x : a), undefined);
}

/** A copy of an OpenAPI document whose object schemas that list members take no others (`additionalProperties: false`). */
function closed(doc) {
  // `key` is the member the node sits under: a `properties` map is no schema (a member may be called `properties`),
  // and an `allOf` part written in place is not closed (it would refuse the other parts' members). A part by `$ref`
  // is its component, closed as any: an object that extends a resource would then refuse its own members, and none
  // does in today's documents (their `allOf`s wrap one reference, or hold `anyOf` rules).
  const walk = (x, key) => {
    if (Array.isArray(x)) return x.map((v) => walk(v, key === "allOf" ? "allOf" : null));
    if (!x || typeof x !== "object") return x;
    const out = {};
    for (const [k, v] of Object.entries(x)) out[k] = key === "properties" ? walk(v, null) : walk(v, k);
    const schema = key !== "properties" && key !== "allOf";
    if (schema && out.properties && typeof out.properties === "object" && out.additionalProperties === undefined && out.patternProperties === undefined) out.additionalProperties = false;
    // An object that takes keys of some forms beyond its members (`ufCrm...`): its `x-key-patterns`, the
    // `patternProperties` OpenAPI 3.0 does not have, are those keys, each with its value's schema; closed, no other.
    if (schema && out["x-key-patterns"] && typeof out["x-key-patterns"] === "object") {
      out.patternProperties = out["x-key-patterns"];
      if (out.additionalProperties === undefined) out.additionalProperties = false;
    }
    return out;
  };
  return walk(doc, null);
}

function classify(e, body, kind) {
  if (!e) return "other";
  const v = e.instancePath.split("/").slice(1).reduce((a, k) => (a == null ? a : a[k.replace(/~1/g, "/").replace(/~0/g, "~")]), body);
  const got = Array.isArray(v) ? "array" : v === null ? "null" : typeof v;
  if (e.keyword === "required") {
    // A request body has no envelope: its top level is the method's parameters. A required name the example writes
    // in another case (`ID` for the table's `id`) is a kind of its own, since the platform's legacy methods differ
    // in whether they read both (decisions.md D7 accepts both cases only for SELECT, FILTER and ORDER).
    const missing = String(e.params.missingProperty);
    const holder = v && typeof v === "object" && !Array.isArray(v) ? Object.keys(v) : [];
    const other = holder.find((k) => k !== missing && k.toLowerCase() === missing.toLowerCase());
    if (other !== undefined) return "a name the table writes in another case";
    if (e.instancePath === "" && kind !== "request") return `member '${missing}' of the envelope absent from the example`;
    if (e.instancePath === "") return "a parameter the table requires absent from the example";
    return "a field the table requires absent from the example";
  }
  if (e.keyword === "type" && (e.params.type === "integer" || e.params.type === "number") && got === "string" && /^-?\d+(\.\d+)?$/.test(v)) return `a number as a string where the table says ${e.params.type}`;
  if (e.keyword === "type") return `${got} where the table says ${e.params.type}`;
  if (e.keyword === "enum") return "a value the table does not list";
  if (e.keyword === "additionalProperties") return "a field absent from the table";
  return `${e.keyword} (${e.message})`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = checkExamples(process.argv[2] ?? join(ROOT, "platform-output"));
  console.log(JSON.stringify(r.figures, null, 2));
  console.log("quirks", r.quirks);
  for (const [k, v] of Object.entries(r.kinds).sort((a, b) => b[1].length - a[1].length)) console.log(`${v.length} ${k}\n    ${v.slice(0, 3).join("\n    ")}`);
  console.log("accepted, and refused once every object is closed:");
  for (const [k, v] of Object.entries(r.extra).sort((a, b) => b[1].length - a[1].length)) console.log(`${v.length} ${k}\n    ${v.slice(0, process.env.ALL ? v.length : 3).join("\n    ")}`);
}
