import type { Field, KnownGap, Method, Model, Version } from "./view.js";
import { ordinal } from "../util/order.js";
import { topMembers } from "./members.js";

/**
 * Questions the emitters ask of the model, beside the model (docs style.md §2, issue 27): which methods get types,
 * which ones list and page, which ones page by cursor, which ones the router answers itself, which gaps apply to a
 * method. No emitter imports another for them. Those that look at every method or gap are indexed once per model,
 * not per emitted method (performance-notes.md: two such scans took 5 s of a 200x spec).
 * They read typed facts (`model.platform`), never the input's words.
 */

/** Methods that get types: described ones and named ones, but not families such as `disk.*`. */
export function typedMethods(model: Model, version: Version): Method[] {
  return model.methods.filter((m) => m.version === version && !m.wildcard);
}

/**
 * Whether a call may leave a method's parameters out: whether `{}` is assignable to the parameters' type the types
 * package prints (its paramsDecl), the rule of the runtime's `Args<P>` (`{} extends P`), decided from the facts that
 * type is printed from. The client's calls by name print `params` optional or required from it: a rest parameter of
 * the conditional `Args<P>` made TypeScript evaluate every method's parameter type to count the arguments of each of
 * an area's hundreds of signatures, on every `call(...)` (issue 28's consumer: about a tenth of its time). A test
 * holds it to `{} extends P` for every method of the whole platform (test/reference/platform.test.ts).
 */
export function paramsOptional(m: Method): boolean {
  // `Record<string, unknown>` and `EmptyParams` take `{}`.
  if (!m.described || m.params.length === 0) return true;
  const forms = m.constraints.find((c) => c.kind === "call-forms");
  // "At least one of" (of parameters the method has): `Required<Pick<…>>` of one of them, which `{}` is not.
  if (atLeastOneOf(m).length > 0) return false;
  // Any one complete call form: `{}` only when a form needs nothing.
  if (forms && forms.kind === "call-forms" && !forms.forms.some((f) => f.length === 0)) return false;
  return m.params.every((p) => !p.required);
}

/**
 * Each "at least one of" of a method, as the names of its parameters it lists (the others are not the method's);
 * those that list none of them are left out. The types print one `Pick` of each name of a group.
 */
export function atLeastOneOf(m: Method): string[][] {
  const names = new Set(m.params.map((p) => p.name));
  const out: string[][] = [];
  for (const c of m.constraints) {
    if (c.kind !== "at-least-one") continue;
    const known = c.params.filter((p) => names.has(p));
    if (known.length > 0) out.push(known);
  }
  return out;
}

/** Records in one page of a legacy list method (the platform fact: the spec's Limits table, else 50). */
export function pageSizeOf(model: Model): number {
  return model.platform.paging.pageSize.value;
}

/** Legacy list methods: those the input names as list methods, and those with a `start` offset. */
export function isListMethod(model: Model, m: Method): boolean {
  if (m.version !== "legacy" || !m.described) return false;
  const array = m.result?.key === null && m.result.type.kind === "array";
  return array && (model.platform.paging.listMethods.value.includes(m.name) || m.params.some((p) => p.name === "start"));
}

/** The names of a list method's filter, order and identifier parameters. */
export type CursorParams = [filter: string, order: string, id: string];

/**
 * Legacy list methods that `all()` walks with the platform's identifier cursor (`>ID` in the filter, the identifier
 * ascending, `start = -1`; ../shared/platform-docs/settings/performance/huge-data.md): a list method with a filter
 * object and an order object among its parameters, whose records have an `ID` (or `id`) member. The spec does not say
 * that a method's filter takes `>`; a method whose filter does not is walked with `start` by passing `cursor: false`.
 */
export function cursorMethods(model: Model): Record<string, CursorParams> {
  const out: Record<string, CursorParams> = {};
  for (const m of typedMethods(model, "legacy")) {
    if (!isListMethod(model, m)) continue;
    const filter = m.params.find((p) => /^filter$/i.test(p.name) && p.type.kind === "object");
    const order = m.params.find((p) => /^order$/i.test(p.name) && p.type.kind === "object");
    const items = m.result?.type.kind === "array" ? m.result.type.items : null;
    const resource = items?.kind === "ref" ? model.resources.find((r) => r.name === items.resource)?.type : items;
    const id = resource?.kind === "object" ? resource.members.find((f) => f.name === "ID" || f.name === "id")?.name : undefined;
    if (filter && order && id) out[m.name] = [filter.name, order.name, id];
  }
  return out;
}

/** The methods the router answers itself (the platform facts of the built-in methods). */
export function builtInMethods(model: Model): { documentation: string[]; scopeList: string[] } {
  return { documentation: model.platform.builtIns.documentation.value, scopeList: model.platform.builtIns.scopeList.value };
}

/** The methods of a version the handler skeleton has a handler for, in spec order: the described ones the router does not answer. */
export function skeletonMethodsOf(model: Model, version: Version): Method[] {
  const built = builtInMethods(model);
  const skip = new Set([...built.documentation, ...built.scopeList]);
  return typedMethods(model, version).filter((m) => m.described && !skip.has(m.name));
}

/** The methods the skeleton has a handler for, per handlers object, in spec order. */
export function skeletonMethodNames(model: Model): { legacy: string[]; v3: string[] } {
  const names = (version: Version) => skeletonMethodsOf(model, version).map((m) => m.name);
  return { legacy: names("legacy"), v3: names("v3") };
}

interface GapIndex {
  /** By the method they apply to (`method:legacy:x`): its own gaps. */
  own: Map<string, KnownGap[]>;
  /** By the method: its own gaps and its parameters' (`param:legacy:x:p`), each once, in model order. */
  withParams: Map<string, KnownGap[]>;
}

const GAPS = new WeakMap<Model, GapIndex>();

function gapIndex(model: Model): GapIndex {
  let index = GAPS.get(model);
  if (index) return index;
  index = { own: new Map(), withParams: new Map() };
  const push = (map: Map<string, KnownGap[]>, key: string, g: KnownGap) => {
    const list = map.get(key);
    if (list) list.push(g);
    else map.set(key, [g]);
  };
  for (const g of model.knownGaps) {
    const methods = new Set<string>();
    for (const a of g.appliesTo) {
      if (a.startsWith("method:")) {
        push(index.own, a, g);
        methods.add(a);
      } else if (a.startsWith("param:")) {
        // `param:<version>:<method>:<parameter>`: method names have dots, never colons.
        const [, version, method] = a.split(":");
        methods.add(`method:${version}:${method}`);
      }
    }
    for (const m of methods) push(index.withParams, m, g);
  }
  GAPS.set(model, index);
  return index;
}

/** The key a known gap names a method by. */
export const methodKey = (m: Pick<Method, "version" | "name">) => `method:${m.version}:${m.name}`;

/** The known gaps of a method itself, in model order. */
export function methodGaps(model: Model, m: Pick<Method, "version" | "name">): readonly KnownGap[] {
  return gapIndex(model).own.get(methodKey(m)) ?? [];
}

/** The known gaps of a method and of its parameters, each once, in model order. */
export function methodAndParamGaps(model: Model, m: Pick<Method, "version" | "name">): readonly KnownGap[] {
  return gapIndex(model).withParams.get(methodKey(m)) ?? [];
}

/**
 * Members whose relative values are links to make absolute: the input's link members (`platform.links`) that are
 * strings wherever a member of that name occurs. A member typed as an object or a resource (`creator`, `responsible`)
 * is never a link, whatever its description says (issue 9: `{creator: "/evil"}` was made absolute).
 */
export function linkFields(model: Model): string[] {
  const notLinks = new Set<string>();
  for (const f of topMembers<Field>(model.resources, model.methods)) if (!(f.type.kind === "unknown" || (f.type.kind === "primitive" && f.type.type === "string"))) notLinks.add(f.name);
  return model.platform.links.value.filter((n) => n && !notLinks.has(n)).sort(ordinal);
}
