import Handlebars from "handlebars";

/**
 * The one place that registers Handlebars helpers and renders templates. Templates are compiled with `strict`
 * (a missing view-model member is an error), `noEscape` (the output is code, not HTML) and `knownHelpersOnly`.
 * Helpers only format; every value a template prints is computed by its emitter into a typed view model.
 */

export type Templates = Readonly<Record<string, string>>;

const hb = Handlebars.create();
const helpers = {
  /** A value as JSON, for data embedded in generated code. */
  json: (value: unknown) => JSON.stringify(value),
};
for (const [name, fn] of Object.entries(helpers)) hb.registerHelper(name, fn);
const knownHelpers = Object.fromEntries(Object.keys(helpers).map((n) => [n, true])) as Record<string, true>;

const cache = new Map<string, HandlebarsTemplateDelegate>();

export function render<V extends object>(templates: Templates, name: string, view: V): string {
  const source = templates[name];
  if (source === undefined) throw new Error(`template '${name}' is missing`);
  const key = `${name}\u0000${source}`;
  let compiled = cache.get(key);
  if (!compiled) {
    compiled = hb.compile(source, { strict: true, noEscape: true, knownHelpers, knownHelpersOnly: true });
    cache.set(key, compiled);
  }
  return compiled(view);
}
