// The published examples of the platform's reference as contracts (issue 29 item 3): every JSON example of every
// method page (the request bodies of the cURL tabs, the response and error blocks), read strictly where they are JSON
// and leniently where they are not (each quirk counted), and validated against the generated OpenAPI schemas of
// their method. Divergences are classified by what differs, with counts and three positions each.
//
//   node test/support/examples.mjs OUT_DIR     prints the figures for a generated folder (npm run generate:platform)
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, sep } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const JSON5 = require("json5");
const { Ajv } = require("ajv");
const addFormats = require("ajv-formats");
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

// The languages a cURL tab's fence is marked with (one block has none).
const CURL_LANGS = new Set(["bash", "shell", "sh", "curl", "http", ""]);
// A call's URL: `/rest/` (`/rest/api/` for 3.0), the webhook's segments if any, the method's name, `.json` if named.
// The webhook's segments are at most three (`/rest/1/code/`), each without a slash: a path of any number, as it was
// written first, was tried at each of its slashes from each `/rest/`, in time the square of a long path's length.
const REST_URL = /\/rest\/(api\/)?(?:[^\s'"/]+\/){0,3}([a-z][\w.]*?)(?:\.json)?\/?(?:\?[^\s'"]*)?(?=\s|'|"|$)/im;

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
    const isCurl = CURL_LANGS.has(lang) && (/\bcurl\b/.test(text) || /^\s*-X\s/.test(text));
    const bodies = isCurl ? curlBodies(text) : [];
    if (bodies.length > 0) {
      // `-d '{…}'`: the request body of a cURL command (single-quoted, as every tab writes it), each command of the
      // block (offline-events.md runs two in one), in whatever section it stands ("Code Examples", "Examples", a
      // mode's own section) and however its fence is marked (`bash`, `sh`, `shell`, `curl`, `http`, or none; `curl`
      // blocks may open at `-X POST` without the word). The method is the one its command's URL calls
      // (`…/rest/[api/]…/crm.deal.add`, or `crm.deal.add.json`, the answer's format named), else the block's first
      // URL's; it is the page's own but for a page's examples of other methods. A command runs from the `curl` before
      // the body to the next (a `curl` fence without the word is one command). Lines and commands are counted forward
      // once, so a block of many commands costs linear time (review).
      const starts = [0, ...[...text.matchAll(/\n[ \t]*curl\b/g)].map((m) => m.index + 1)];
      const urls = new Map();
      const urlOf = (k) => {
        if (!urls.has(k)) urls.set(k, REST_URL.exec(text.slice(starts[k], starts[k + 1] ?? text.length)) ?? REST_URL.exec(text));
        return urls.get(k);
      };
      const codeTab = /code examples?/.test(section) && /^(?:bash|shell|sh)$/.test(lang) && /\bcurl\b/.test(text);
      let command = 0;
      let lineOf = 0;
      let counted = 0;
      for (const d of bodies) {
        while (command + 1 < starts.length && (starts[command + 1] ?? Infinity) <= d.index) command++;
        for (let at = text.indexOf("\n", counted); at >= 0 && at < d.index; at = text.indexOf("\n", at + 1)) lineOf++, (counted = at + 1);
        const url = urlOf(command);
        out.push({ kind: "request", text: d.body, line: i + 2 + lineOf, method: url ? { name: url[2], version: url[1] ? "v3" : "legacy" } : undefined, codeTab });
      }
    } else if (lang === "json" && /response|returned data|successful/.test(section)) out.push({ kind: "response", text, line: i + 2 });
    else if (lang === "json" && /error/.test(section)) out.push({ kind: "error", text, line: i + 2 });
    i = j;
  }
  return out;
}

/**
 * The single-quoted bodies of a block's `-d '…'`, each to the first quote that ends a line (a `\` after it for the
 * command's next line): `{ index, body }`, the bodies the pattern `-d\s+'([\s\S]*?)'\s*(?:\\\s*$|$)` matched them. By hand,
 * since that pattern searched to the text's end from each `-d '` that no such quote closes: time in the square of
 * the number of them. The quotes that end a line are found once, and each body takes the first after its start.
 */
function curlBodies(text) {
  const ends = [...text.matchAll(/'[ \t]*(?:\\[ \t]*)?$/gm)].map((m) => m.index);
  const out = [];
  let from = 0;
  let e = 0;
  for (const m of text.matchAll(/-d\s+'/g)) {
    if (m.index < from) continue;
    const start = m.index + m[0].length;
    while (e < ends.length && ends[e] < start) e++;
    if (e >= ends.length) break;
    out.push({ index: m.index, body: text.slice(start, ends[e]) });
    from = ends[e] + 1;
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
    if (/^[ \t]*\/\/|[^:"]\/\/\s|\/\*/m.test(text)) quirks.push("comment");
    if (/\.\.\./.test(text)) quirks.push("ellipsis");
    // A cURL tab's shell: `"deadline":"'"$(date -Iseconds)"'"`, `"id": '"$id"'` close the single-quoted body to splice
    // a command's output or a variable in. Each is read as a placeholder, a string the checks below stand a value in for.
    if (SHELL.test(text)) quirks.push("shell substitution");
    // A placeholder written bare where a value goes (`"attachId":**put_attach_id**`): read as the placeholder string.
    // The splice becomes the placeholder's text where it stands, the quotes around it kept: inside a string
    // (`"Task created '"$(date)"' by bot"`, where the shell joins the output into the text) it is text of that string;
    // outside one (`"id": '"$id"'`) the scan below quotes it. Quoted whole in place, it broke the string it stood in
    // (review).
    const bare = quoteBarePlaceholders(text.replace(SHELL_ALL, (m, open, close) => `${open ?? ""}${SPLICED}${close ?? ""}`));
    if (bare.count > 0) quirks.push("placeholder");
    const cleaned = bare.text
      // Spaces, not `\s`, where a pattern starts at each line or looks behind: over a text of many newlines those
      // took time in the square of its length (review).
      .replace(/^[ \t]*\.\.\.[ \t]*,?[ \t]*$/gm, "")
      .replace(/,\s*\.\.\.\s*(?=[\]}])/g, "")
      .replace(/([[{,]\s*)\.\.\.\s*(?=[\]},])/g, "$1")
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

// A shell splice, with the JSON quotes around it if any: a variable quoted for the shell (`'"$id"'`, its name starting
// with a letter), or a command's output, quoted or not (`'"$(date --date='-6 months' +%F)"'`, `'$(date -Iseconds)'`).
// `'$NAME'` or `'$5'` inside a string is text (review). Both forms bounded, so a hostile text costs linear time
// (review: unbounded, `'$(` repeated took time in the square of its length).
const SHELL_SOURCE = String.raw`(")?'(?:"\$\{?[A-Za-z_]\w{0,63}\}?"|"?\$\([^)\n]{0,200}\)"?)'(")?`;
const SHELL = new RegExp(SHELL_SOURCE);
const SHELL_ALL = new RegExp(SHELL_SOURCE, "g");
// What a splice reads as: a placeholder, counted as the shell's quirk rather than a placeholder written bare.
const SPLICED = "**shell**";

/**
 * Each `**name**` outside a string quoted (`"attachId":**put_attach_id**` -> `"**put_attach_id**"`), with their count.
 * One pass that knows where strings (double- or single-quoted, escapes within) and comments are, so text inside them
 * ("Hi, **John**, welcome") is left as it is (review), in linear time.
 */
function quoteBarePlaceholders(text) {
  let out = "";
  let count = 0;
  // The quote that opened the string the scan is in (JSON5's `'…'` too), or "" outside one.
  let quote = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      out += c;
      if (c === "\\") out += text[++i] ?? "";
      else if (c === quote) quote = "";
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === "/" && (text[i + 1] === "/" || text[i + 1] === "*")) {
      // A comment, kept as it is: a quote inside it opens no string.
      const end = text[i + 1] === "/" ? text.indexOf("\n", i) : text.indexOf("*/", i + 2);
      const to = end < 0 ? text.length : text[i + 1] === "/" ? end : end + 2;
      out += text.slice(i, to);
      i = to - 1;
      continue;
    } else if (c === "*" && text[i + 1] === "*") {
      const m = /^\*\*(\w{1,100})\*\*/.exec(text.slice(i, i + 106));
      if (m) {
        out += `"${m[0]}"`;
        i += m[0].length - 1;
        if (m[0] !== SPLICED) count++;
        continue;
      }
    }
    out += c;
  }
  return { text: out, count };
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
    figures[kind] ??= { examples: 0, otherPage: 0, unattributed: 0, strict: 0, lenient: 0, unreadable: 0, checked: 0, accepted: 0, strictAccepted: 0, closedAccepted: 0, codeTabChecked: 0, codeTabAccepted: 0, codeTabClosedAccepted: 0 };
    figures[kind][key]++;
  };
  // Every page of the reference, the method pages and the others (a guide's cURL tabs call methods too): a request
  // example is its URL's method's, a response or an error its page's method's.
  const described = model.methods.filter((x) => x.described && x.source.file.includes("api-reference/"));
  const byPage = new Map(described.map((x) => [x.source.file, x]));
  const byName = new Map(described.map((x) => [`${x.version}:${x.name.toLowerCase()}`, x]));
  const pages = new Set(described.map((x) => x.source.file));
  for (const file of pagesUnder(root, model)) pages.add(file);
  for (const file of [...pages].sort()) {
    const page = readFileSync(join(root, file), "utf8");
    for (const ex of examplesOf(page)) {
      const m = ex.method ? byName.get(`${ex.method.version}:${ex.method.name.toLowerCase()}`) : byPage.get(file);
      if (!m) {
        // A response or error of a page that is no method's, or a request to a method the reference does not
        // describe (or a URL the reading cannot place): nothing to check it against, counted.
        if (ex.kind === "request" || byPage.has(file)) count(ex.kind, "unattributed");
        continue;
      }
      const op = docs[m.version].paths[`/${m.name}`];
      if (!op) continue;
      const verb = op.post ? "post" : "get";
      const base = `${m.version}#/paths/${pointer(m.name)}/${verb}`;
      count(ex.kind, "examples");
      if (m.source.file !== file) count(ex.kind, "otherPage");
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
      // The measure before every tab was read: the `bash` cURL tabs under "Code Examples", of the page's own method.
      const codeTab = ex.codeTab && m.source.file === file;
      if (codeTab) count(ex.kind, "codeTabChecked");
      const stood = standIns(validate, value);
      if (stood.count > 0) quirks.placeholder = (quirks.placeholder ?? 0) + stood.count;
      value = stood.value;
      if (validate(value)) {
        count(ex.kind, "accepted");
        if (codeTab) count(ex.kind, "codeTabAccepted");
        if (read.strict) count(ex.kind, "strictAccepted");
        // The type-checked sample takes whole responses (the envelope's type is part of what it checks).
        if (ex.kind === "response" && read.strict && !bodyOnly) accepted.push({ method: m.name, version: m.version, body: value });
        const closedCheck = strictAjv.getSchema(schemaRef) ?? strictAjv.compile({ $ref: schemaRef });
        if (closedCheck(value)) {
          count(ex.kind, "closedAccepted");
          if (codeTab) count(ex.kind, "codeTabClosedAccepted");
        }
        else {
          const e = deepest(closedCheck.errors);
          const at = e?.keyword === "additionalProperties" ? `${e.instancePath}/${e.params.additionalProperty}` : (e?.instancePath ?? "");
          (extra[`${ex.kind}: ${e?.keyword === "additionalProperties" ? "a field absent from the table" : classify(e, value)}`] ??= []).push(`${file}:${ex.line} ${at}`);
        }
        continue;
      }
      // The deepest error: under a union every option's first error is listed, and the option that went furthest
      // into the example says what differs (the others fail at the union's own level).
      const e = deepest(validate.errors);
      const kind = `${ex.kind}: ${classify(e, value, ex.kind)}`;
      // A missing member's position is the member's own path, under the object that lacks it.
      const at = e?.keyword === "required" ? `${e.instancePath}/${e.params.missingProperty}` : e?.instancePath;
      (kinds[kind] ??= []).push(`${file}:${ex.line}${at ? ` ${at}` : ""}`);
    }
  }
  return { figures, kinds, quirks, accepted, extra };
}

/** The reference's pages (every `.md` of its folder), as paths like the model's sources (from the config's folder). */
function pagesUnder(root, model) {
  const first = model.methods.find((x) => x.source.file.includes("api-reference/"));
  if (!first) return [];
  // The reference's folder, the guides beside api-reference/ too (settings/: how to call the API, with cURL tabs).
  // Sources that start at api-reference/ name pages from the config's folder itself.
  const top = first.source.file.slice(0, Math.max(0, first.source.file.indexOf("api-reference/") - 1));
  return readdirSync(join(root, top), { recursive: true })
    .filter((f) => f.endsWith(".md"))
    .map((f) => (top ? `${top}/` : "") + f.split(sep).join("/"));
}

/** A placeholder the pages write for a value to fill in: `"**put_invoice_id_here**"`, `"**base64_encoded_content**"`. */
const PLACEHOLDER = /^\*\*[^*]+\*\*$/;

/**
 * The example with each placeholder the schema refuses as it is (`"id": "**put_invoice_id_here**"` where the table
 * says `integer`) replaced by a value of the type or form the schema asks there, one at a time: a placeholder is a
 * quirk of the lenient reading (counted), not a divergence; anything else the example says is still checked.
 * Bounded by the example's placeholders, each replaced at most once.
 */
export function standIns(validate, value) {
  let count = 0;
  const done = new Set();
  for (;;) {
    if (validate(value)) return { value, count };
    const e = deepest(validate.errors);
    if (!e || done.has(e.instancePath) || !["type", "format", "enum"].includes(e.keyword)) return { value, count };
    const path = e.instancePath.split("/").slice(1).map((k) => k.replace(/~1/g, "/").replace(/~0/g, "~"));
    const at = path.reduce((a, k) => (a == null ? a : a[k]), value);
    if (typeof at !== "string" || !PLACEHOLDER.test(at)) return { value, count };
    const stand = standIn(e);
    if (stand === undefined) return { value, count };
    done.add(e.instancePath);
    value = structuredClone(value);
    const holder = path.slice(0, -1).reduce((a, k) => a[k], value);
    if (path.length === 0) value = stand;
    else holder[path[path.length - 1]] = stand;
    count++;
  }
}

/** A value of the type or form an Ajv error asks for, or undefined. */
function standIn(e) {
  if (e.keyword === "enum") return e.params.allowedValues?.[0];
  if (e.keyword === "format") return { "date-time": "2024-01-01T00:00:00+00:00", date: "2024-01-01", uri: "https://example.com/", email: "user@example.com" }[e.params.format];
  if (e.keyword !== "type") return undefined;
  const type = String(e.params.type).split(",")[0];
  return { integer: 1, number: 1, boolean: true, array: [], object: {}, null: null }[type];
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
