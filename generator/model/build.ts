import { type Diagnostic, diagnostic } from "../diagnostics/catalogue.js";
import { APP_CONTEXT_CAUSE, type Fragments, RETURNED_BY, emptyMethod } from "./fragments.js";
import { pascal } from "./naming.js";
import { platformFacts } from "./platform.js";
import { withKnownEvents } from "./events.js";
import { CALLING_THE_API, MODEL_VERSION, type Field, type KnownGap, type Method, type MethodError, type Model, type ModelOptions, type Resource, type Source, type Statement, type TypeRef, type Version } from "./types.js";
import { withoutParenSpan } from "../util/parens.js";

/**
 * The model stage: merges the readers' fragments, resolves names (resource titles, "see X", "returned by"),
 * applies the spec's cross-section rules (application-context list, limits that name a method's parameters,
 * GET for 3.0 methods without parameters, statuses from the error catalogue), lifts nested shapes out as
 * resources, and reports duplicates.
 */

const METHOD_NAME = /^[a-z][A-Za-z0-9_]*(?:\.(?:[A-Za-z0-9_]+|\*))+$/;

function spanAt(s: Source, length: number) {
  return { ...s, endLine: s.line, endColumn: s.column + length };
}

function undescribed(name: string, version: Version, area: string, source: Source): Method {
  return { ...emptyMethod(name, version, area, source), described: false, mentions: [source] };
}

/** Normalized resource title for matching "see Allowed actions", "array of pay system items", "the task". */
function titleKey(title: string): string {
  return title
    .toLowerCase()
    .split("\n")
    .map(withoutParenSpan)
    .join("\n")
    .replace(/^(the|a|an)\s+/, "")
    .replace(/\s+(items?|record|object)$/, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

interface Resolver {
  byTitle(title: string): Resource | undefined;
  returnedBy(method: string): Resource | undefined;
}

function makeResolver(resources: Resource[]): Resolver {
  return {
    byTitle(title) {
      const key = titleKey(title);
      if (!key) return undefined;
      return (
        resources.find((r) => titleKey(r.title) === key) ??
        resources.find((r) => titleKey(r.title).startsWith(`${key} `)) ??
        resources.find((r) => r.name.toLowerCase() === key.replace(/ /g, ""))
      );
    },
    returnedBy(method) {
      return resources.find((r) => r.returnedBy.includes(method));
    },
  };
}

/** `type` with `fn` applied to it and to every type inside it (members, items, options), top down. */
export function mapType(type: TypeRef, fn: (t: TypeRef) => TypeRef): TypeRef {
  const t = fn(type);
  switch (t.kind) {
    case "object":
      return {
        ...t,
        members: t.members.map((m) => ({ ...m, type: mapType(m.type, fn) })),
        ...(t.additional ? { additional: mapType(t.additional, fn) } : {}),
      };
    case "array":
      return { ...t, items: mapType(t.items, fn) };
    case "union":
      return { ...t, options: t.options.map((o) => mapType(o, fn)) };
    default:
      return t;
  }
}

/** Lifts named or nested object shapes of resource fields into resources of their own. */
function liftShapes(resources: Resource[]): Resource[] {
  const out: Resource[] = [];
  const taken = new Set(resources.map((r) => r.name));
  const lift = (owner: Resource, path: string, type: TypeRef, source: Source): TypeRef => {
    if (type.kind === "array") return { ...type, items: lift(owner, `${path}Item`, type.items, source) };
    if (type.kind === "union") return { ...type, options: type.options.map((o, i) => lift(owner, `${path}${i + 1}`, o, source)) };
    if (type.kind !== "object") return type;
    // A reader's hint names the shape; "Item" asks for `<path>Item` ("item fields" of a keyed object).
    const name = type.name === "Item" ? `${path.replace(/Value$/, "")}Item` : (type.name ?? path);
    const inner: TypeRef = {
      ...type,
      members: type.members.map((m) => ({ ...m, type: lift(owner, `${name}${pascal(m.name)}`, m.type, m.source) })),
      ...(type.additional ? { additional: lift(owner, `${name}Value`, type.additional, source) } : {}),
    };
    if (inner.kind !== "object" || inner.members.length === 0) {
      if (inner.kind === "object") {
        const { name: _hint, ...rest } = inner;
        return rest;
      }
      return inner;
    }
    if (!taken.has(name)) {
      taken.add(name);
      const { name: _hint, ...shape } = inner;
      out.push({
        name,
        title: `${owner.title}: ${name}`,
        description: `Nested shape of ${owner.name}.`,
        returnedBy: [],
        links: [],
        type: shape,
        typingRules: [],
        notes: [],
        source,
      });
    }
    return { kind: "ref", resource: name };
  };
  for (const r of resources) {
    if (r.type.kind === "object") {
      const t = r.type;
      const members = t.members.map((m) => ({ ...m, type: lift(r, `${r.name}${pascal(m.name)}`, m.type, m.source) }));
      const additional = t.additional ? lift(r, `${r.name}Value`, t.additional, r.source) : undefined;
      const { name: _hint, ...rest } = t;
      out.push({ ...r, type: { ...rest, members, ...(additional ? { additional } : {}) } });
    } else out.push(r);
  }
  return out;
}

function statementsOf(f: Fragments, methods: Method[], resources: Resource[]): Statement[] {
  return [
    ...f.intro,
    ...f.overview,
    ...f.addressing.rules,
    ...f.fileRetrieval.rules,
    ...f.authentication.rules,
    ...f.events,
    ...f.errors.notes,
    ...f.limits.rules,
    ...f.versioning,
    ...f.states.notes,
    ...f.endpointNotes,
    ...methods.flatMap((m) => m.notes),
    ...resources.flatMap((r) => [...r.notes, ...r.typingRules]),
  ];
}

export function buildModel(specFile: string, f: Fragments, options: ModelOptions = {}): { model: Model; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const gaps: KnownGap[] = [...f.gaps];

  // 1. Methods: one per name and version; a second definition is an error that points at the first.
  const methods: Method[] = [];
  const key = (name: string, v: Version) => `${v}:${name}`;
  const seen = new Map<string, Method>();
  for (const m of f.methods) {
    const k = key(m.name, m.version);
    const first = seen.get(k);
    if (first) {
      diagnostics.push({
        ...diagnostic("duplicate-method", spanAt(m.source, m.name.length + 4), { name: m.name, version: m.version }, {
          line: first.source.line,
          column: first.source.column,
          message: "first defined",
        }),
        subject: { method: m.name },
      });
      continue;
    }
    seen.set(k, m);
    methods.push(m);
  }
  const find = (name: string, v?: Version) =>
    methods.find((m) => m.name === name && (v === undefined || m.version === v)) ??
    methods.find((m) => m.aliases.includes(name) && (v === undefined || m.version === v));

  // 2. Resources: unique names.
  const resources: Resource[] = [];
  for (const r of f.resources) {
    const first = resources.find((x) => x.name === r.name);
    if (first) {
      diagnostics.push({
        ...diagnostic("duplicate-resource", spanAt(r.source, r.title.length), { name: r.name }, {
          line: first.source.line,
          column: first.source.column,
          message: "first defined",
        }),
        subject: { resource: r.name },
      });
      continue;
    }
    resources.push(r);
  }

  // 3. Methods the spec only names: the named-methods list, the file retrieval table, and method names in text.
  // Every proper prefix of a method's name (`sign.b2e` of `sign.b2e.personal.tail`), kept as methods are added: a
  // name that prefixes a method is not a method of its own. A set, not a scan of the methods for every name.
  const prefixes = new Set<string>();
  const addPrefixes = (name: string) => {
    for (let i = name.indexOf("."); i >= 0; i = name.indexOf(".", i + 1)) prefixes.add(name.slice(0, i));
  };
  for (const m of methods) addPrefixes(m.name);
  const namedOnly = (name: string, version: Version, area: string, source: Source) => {
    if (find(name)) {
      const m = find(name);
      if (m && !m.described) m.mentions.push(source);
      return;
    }
    methods.push(undescribed(name, version, area, source));
    addPrefixes(name);
  };
  for (const n of f.named) namedOnly(n.name, "legacy", n.area, n.source);
  for (const row of f.fileRetrieval.rows) for (const name of row.methods) namedOnly(name, "legacy", "Retrieving file content", row.source);
  const resultMembers = new Set<string>();
  for (const m of methods) {
    const t = m.result?.type;
    if (t?.kind === "object") for (const x of t.members) resultMembers.add(x.name);
  }
  const envelopeRoots = new Set(["result", "time", ...(f.envelope?.members.map((x) => x.name) ?? [])]);
  for (const s of statementsOf(f, methods, resources)) {
    for (const ref of s.refs) {
      if (!METHOD_NAME.test(ref)) continue;
      const root = ref.split(".")[0] ?? "";
      if (envelopeRoots.has(root) || resultMembers.has(root)) continue;
      if (prefixes.has(ref)) continue;
      const v3 = /^Areas with 3\.0 methods\b/.test(s.text) && !new RegExp(`\`${ref.replace(/[.*]/g, "\\$&")}\` methods stay legacy`).test(s.text);
      namedOnly(ref, v3 ? "v3" : "legacy", "", s.source);
    }
  }
  for (const r of resources) for (const name of r.returnedBy) if (METHOD_NAME.test(name)) namedOnly(name, "legacy", "", r.source);
  // A method named in a parameter's or a field's words ("currency code from `crm.currency.list`") or in an error's
  // cause is named too (issue 26: named in passing is named).
  const inWords = (text: string | null, at: Source) => {
    for (const ref of (text ?? "").matchAll(/`([a-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)+)`/g)) {
      const name = ref[1] ?? "";
      const root = name.split(".")[0] ?? "";
      if (envelopeRoots.has(root) || resultMembers.has(root) || prefixes.has(name)) continue;
      namedOnly(name, "legacy", "", at);
    }
  };
  const fieldWords = (fields: Field[]) => {
    for (const x of fields) {
      inWords(x.description, x.source ?? at0);
      const t = x.type.kind === "array" ? x.type.items : x.type;
      if (t.kind === "object") fieldWords(t.members);
    }
  };
  const at0 = f.titleSource ?? { file: specFile, line: 1, column: 1 };
  for (const m of [...methods]) {
    if (!m.described) continue;
    fieldWords(m.params);
    inWords(m.description, m.source);
    for (const e of m.errors) inWords(e.cause, e.source);
  }
  for (const r of resources) if (r.type.kind === "object") fieldWords(r.type.members);
  for (const row of f.fileRetrieval.rows) inWords(row.field, row.source);
  for (const l of f.limits.table) {
    for (const ref of l.appliesTo.matchAll(/`([^`]+)`/g)) if (METHOD_NAME.test(ref[1] ?? "")) namedOnly(ref[1] ?? "", "legacy", "", l.source);
  }

  // 4. Cross-section rules.
  for (const a of f.authentication.applicationContext) {
    for (const m of methods.filter((x) => x.name === a.name && x.version === "legacy")) m.applicationContextOnly = true;
  }
  // Limits that name a parameter of a method in backticks ("`limit` | 1 to 1000, default 20 | `sign.b2e.personal.tail`").
  for (const l of f.limits.table) {
    const param = /^`([A-Za-z_]\w*)`$/.exec(l.name)?.[1];
    const target = /^`([^`]+)`$/.exec(l.appliesTo)?.[1];
    const m = target ? find(target, "legacy") : undefined;
    if (!param || !m) continue;
    const integer = l.min !== undefined && l.max !== undefined;
    const p: Field = {
      name: param,
      type: integer ? { kind: "primitive", type: "integer", minimum: l.min, maximum: l.max } : { kind: "unknown" },
      required: false,
      nullable: false,
      description: l.value,
      ...(l.defaultValue !== undefined ? { default: { value: l.defaultValue, text: String(l.defaultValue) } } : {}),
      source: l.source,
    };
    if (!m.params.some((x) => x.name === param)) m.params.push(p);
    if (!m.described) {
      m.described = true;
      gaps.push({ subject: "The method has no section of its own in Endpoints: scope, access and errors", kind: "not-stated", appliesTo: [`method:${m.version}:${m.name}`], source: m.source });
    }
  }
  // "In 3.0 methods without parameters accept GET or POST."
  const getRule = f.addressing.rules.some((r) => /\b3\.0 methods without parameters accept GET or POST\b/.test(r.text));
  if (getRule) for (const m of methods) if (m.version === "v3" && m.described && m.params.length === 0) m.httpMethods = ["GET", "POST"];
  // Legacy GET (D32): the spec's addressing shows POST and says nothing of GET; the platform's reference says simple
  // requests may be sent by GET with query parameters. The generator's option (default on) decides, and the model
  // records the reading as a document-level gap so that `model.json` says where the verb came from.
  if (options.legacyGet !== false) {
    const legacy = methods.filter((m) => m.version === "legacy" && !m.wildcard);
    for (const m of legacy) if (!m.httpMethods.includes("GET")) m.httpMethods = ["GET", ...m.httpMethods];
    const form = f.addressing.forms.find((x) => x.version === "legacy") ?? null;
    if (legacy.length > 0 && form) {
      gaps.push({
        subject: `Whether legacy methods take GET with query parameters: read as yes, as the platform's reference says (${CALLING_THE_API}); option legacyGet`,
        kind: "not-stated",
        appliesTo: [],
        source: form.source,
      });
    }
  }

  // 5. Resolve resource names.
  const resolver = makeResolver(resources);
  const warn = (name: string, what: string, at: Source) =>
    diagnostics.push(diagnostic("unknown-reference", spanAt(at, name.length), { name, what }));
  for (const r of resources) {
    if (r.type.kind === "ref" && r.type.resource.startsWith("see:")) {
      const target = find(r.type.resource.slice(4));
      const param = target?.params.find((p) => p.type.kind === "object");
      if (target && param) {
        r.type = param.type;
        param.type = { kind: "ref", resource: r.name };
      } else {
        warn(r.type.resource.slice(4), "method", r.source);
        r.type = { kind: "unknown" };
      }
    }
    if (r.type.kind === "object" && r.type.name === "see-params") {
      const names = r.type.members.map((x) => x.name);
      const target = methods.find((m) => names.length > 0 && names.every((n) => m.params.some((p) => p.name === n)));
      const { name: _hint, ...rest } = r.type;
      r.type = {
        ...rest,
        members: rest.members.map((x) => {
          const p = target?.params.find((q) => q.name === x.name);
          return p ? { ...x, type: p.type, nullable: p.nullable, description: p.description || x.description } : x;
        }),
      };
      if (target) r.returnedBy.push(`params:${target.name}`);
    }
    for (const rb of r.returnedBy) {
      const verb = /^verb:(\w+)$/.exec(rb)?.[1];
      if (!verb) continue;
      const stem = pascal(r.title).replace(/^./, (c) => c.toLowerCase());
      const m = methods.find((x) => x.name.endsWith(`.${verb}`) && x.name.includes(stem));
      if (m) r.returnedBy.push(m.name);
    }
    r.returnedBy = r.returnedBy.filter((x) => !x.startsWith("verb:") && !x.startsWith("params:"));
  }
  const resolveRefs = (m: Method, t: TypeRef): TypeRef =>
    mapType(t, (x) => {
      if (x.kind === "object" && x.extends?.startsWith("title:")) {
        const r = resolver.byTitle(x.extends.slice(6));
        if (r) return { ...x, extends: r.name };
        warn(x.extends.slice(6), "resource", m.result?.source ?? m.source);
        const { extends: _gone, ...rest } = x;
        return rest;
      }
      if (x.kind !== "ref") return x;
      if (x.resource.startsWith("title:")) {
        const r = resolver.byTitle(x.resource.slice(6)) ?? resolver.returnedBy(m.name);
        if (r) return { kind: "ref", resource: r.name };
        warn(x.resource.slice(6), "resource", m.result?.source ?? m.source);
        return { kind: "unknown", note: x.resource.slice(6) };
      }
      if (x.resource.startsWith(RETURNED_BY)) {
        const r = resolver.returnedBy(m.name);
        if (r) return { kind: "ref", resource: r.name };
        const member = /\{(\w+)\}/.exec(x.resource)?.[1];
        if (member) {
          return { kind: "object", members: [{ name: member, type: { kind: "unknown" }, required: true, nullable: false, description: "", source: m.result?.source ?? m.source }] };
        }
        warn(m.name, "resource returned by", m.result?.source ?? m.source);
        return { kind: "unknown" };
      }
      return x;
    });
  /** The link a resource gives for this method's result under `key`: one for the method's version first. */
  const linkFor = (m: Method, key: string | null): { resource: Resource; many: boolean } | null => {
    let loose: { resource: Resource; many: boolean } | null = null;
    for (const r of resources) {
      for (const l of r.links) {
        if (l.method !== m.name || l.key !== key) continue;
        if (l.version === m.version) return { resource: r, many: l.many };
        if (l.version === null) loose ??= { resource: r, many: l.many };
      }
    }
    return loose;
  };
  for (const m of methods) {
    if (m.result) m.result = { ...m.result, type: resolveRefs(m, m.result.type) };
    // "Response `result.task`." names no resource; the resource's "Returned by ... (key `task` inside `result`)" does.
    if (m.result && m.result.type.kind === "unknown" && m.result.type.note === undefined) {
      const link = linkFor(m, m.result.key);
      if (link) {
        const ref: TypeRef = { kind: "ref", resource: link.resource.name };
        m.result = { ...m.result, type: link.many ? { kind: "array", items: ref } : ref };
      }
    }
    // A resource that names this method as the one returning its items ("`placement.get` item") gives the result.
    if (!m.result) {
      const r = resolver.returnedBy(m.name);
      if (r) {
        const item = /\bitem\b/.test(r.title);
        m.result = {
          type: item ? { kind: "array", items: { kind: "ref", resource: r.name } } : { kind: "ref", resource: r.name },
          key: null,
          description: `See ${r.title}.`,
          empty: [],
          source: r.source,
        };
      }
    }
  }
  // Array items named by a noun that is a shape of the same area ("each an array of reminders").
  for (const m of methods) {
    for (const p of m.params) {
      p.type = mapType(p.type, (x) => {
        if (x.kind === "unknown" && x.note) {
          const r = resolver.byTitle(x.note.replace(/s$/, ""));
          if (r) return { kind: "ref", resource: r.name };
        }
        return x;
      });
    }
  }
  for (const r of resources) {
    r.type = mapType(r.type, (x) => {
      if (x.kind === "unknown" && x.note) {
        const target = resolver.byTitle(x.note.replace(/s$/, ""));
        if (target && target !== r) return { kind: "ref", resource: target.name };
      }
      return x;
    });
  }

  // 6. A resource returned by a method with a `select` parameter has no field that is always present.
  for (const r of resources) {
    if (r.type.kind !== "object") continue;
    const selectable = r.returnedBy.some((n) =>
      methods.some((m) => m.name === n && m.params.some((p) => p.name.toLowerCase() === "select")),
    );
    if (selectable) r.type = { ...r.type, members: r.type.members.map((x) => ({ ...x, required: false })) };
  }

  // 6b. Requirements as the spec writes them (D8): a starred parameter that is also one of an "at least one of" is
  // not required on its own (a warning names both places: the spec says two things); "Required for X; ignored for
  // `p=v`" is required unless `p` is `v`. The types, the OpenAPI `required` lists and the server read the same.
  for (const m of methods) {
    for (const c of m.constraints) {
      if (c.kind !== "at-least-one") continue;
      for (const name of c.params) {
        const p = m.params.find((q) => q.name === name);
        if (!p?.required) continue;
        p.required = false;
        diagnostics.push({
          ...diagnostic(
            "ambiguous-reading",
            spanAt(c.source, 1),
            { text: c.text, reading: `\`${name}\` not required on its own: it is starred, and one of an "at least one of"` },
            { line: p.source.line, column: p.source.column, message: `\`${name}\` is starred here` },
          ),
          subject: { method: m.name },
        });
      }
    }
    for (const c of m.constraints) {
      if (c.kind !== "required-when") continue;
      for (const name of c.params) {
        const p = m.params.find((q) => q.name === name);
        if (!p?.required) continue;
        p.required = false;
        diagnostics.push({
          ...diagnostic("ambiguous-reading", spanAt(c.source, 1), { text: c.text, reading: `\`${name}\` not required on its own: it is starred, and required only ${c.condition}` }, { line: p.source.line, column: p.source.column, message: `\`${name}\` is starred here` }),
          subject: { method: m.name },
        });
      }
    }
    for (const p of m.params) {
      const rule = /\bRequired for ([^;.]+);\s*ignored for `([A-Za-z_]\w*)\s*=\s*([\w-]+)`/i.exec(p.description);
      if (!rule) continue;
      p.required = false;
      const text = `\`${p.name}\`: required for ${rule[1]}; ignored for \`${rule[2]}=${rule[3]}\`.`;
      m.constraints.push({ kind: "required-unless", params: [p.name], unless: { param: rule[2] ?? "", value: rule[3] ?? "" }, text, source: p.source });
    }
  }

  // 7. Statuses from the error catalogue for codes a method names without one (or with several). The error an
  // "application context only (else `WRONG_AUTH_TYPE`)" sentence names is kept once when the errors list it too.
  for (const m of methods) {
    m.errors = m.errors
      .filter((e, i, all) => !(e.cause === APP_CONTEXT_CAUSE && all.some((o, j) => j !== i && o.code === e.code)))
      .map((e) => statusFromCatalogue(e, f));
  }

  // 8. Errors the spec leaves open: the method's error-code type stays open where the spec says more codes exist.
  for (const m of methods) {
    const key = `method:${m.version}:${m.name}`;
    const gap = gaps.find((g) => g.appliesTo.includes(key) && /\b(?:errors?|error codes?|code names?)\b/i.test(g.subject));
    const uncoded = m.errors.find((e) => e.code === null);
    if (gap) m.errorsOpen = { reason: `${gap.subject}: not shown`, source: gap.source };
    else if (uncoded) m.errorsOpen = { reason: `an error the spec lists without its code (${uncoded.text ?? uncoded.cause ?? "no text"})`, source: uncoded.source };
    else if (!m.described) m.errorsOpen = { reason: "the spec only names the method", source: m.source };
  }

  const withEvents = f.eventPayloads ? withKnownEvents(methods, f.eventPayloads) : methods;
  const lifted = liftShapes(resources);
  const platform = platformFacts(f.platform, f.titleSource ?? { file: specFile, line: 1, column: 1 }, gaps);
  const model: Model = {
    modelVersion: MODEL_VERSION,
    specFile,
    sections: f.sections,
    title: f.title,
    intro: f.intro,
    overview: f.overview,
    envelope: f.envelope,
    resources: lifted,
    states: f.states,
    addressing: f.addressing,
    methods: withEvents,
    fileRetrieval: f.fileRetrieval,
    authentication: { rules: f.authentication.rules },
    events: f.events,
    errors: f.errors,
    limits: f.limits,
    versioning: f.versioning,
    knownGaps: gaps,
    platform,
    ...(f.publicPages ? { publicPages: f.publicPages } : {}),
    ...(f.eventPayloads ? { eventPayloads: f.eventPayloads } : {}),
  };
  return { model, diagnostics };
}

function statusFromCatalogue(e: MethodError, f: Fragments): MethodError {
  if (e.status !== null || !e.code) return e;
  const entries = f.errors.catalogue.filter((c) => c.code === e.code);
  const candidates = entries.flatMap((c) => [c.status, c.altStatus]).filter((s): s is number => s !== null);
  const pick = e.statuses.length > 0 ? candidates.find((s) => e.statuses.includes(s)) : entries.find((c) => c.status !== null)?.status ?? undefined;
  if (pick === undefined || pick === null) return e;
  return { ...e, status: pick, statusFrom: "catalogue" };
}
