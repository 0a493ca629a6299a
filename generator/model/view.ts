import type * as M from "./types.js";

declare const PROSE: unique symbol;

/**
 * The input's prose as the emitters see it (issue 27): an opaque value, not a string. An emitter can hand it to a
 * printer (`emit/prose.ts`: a JSDoc or OpenAPI description, a quoted error text sent as data), and cannot test,
 * match, split, compare or interpolate it: the type checker, not a grep, keeps the emitters from reading the input's
 * words. At run time it is the string the front end read. What the checker cannot refuse on any value, `String(p)`
 * and `p.toString()`, the layering test lists or forbids in `emit/`.
 */
// A symbol in the type (a string at run time): TypeScript refuses it in a template literal too (`${p}`), the one
// place an object type would have passed.
export type Prose = symbol & { readonly [PROSE]: "prose" };

/**
 * The members that hold the input's words: descriptions, causes, quoted texts, notes, a States row's parts, gap
 * subjects, scope notes, the reasons errors are open, an unknown type's note, a map's key description, an error
 * trigger's words, titles (the document's, a section's, a resource's).
 */
type ProseKey = "description" | "cause" | "text" | "subject" | "trigger" | "condition" | "next" | "also" | "where" | "notes" | "scopeNote" | "reason" | "note" | "keyDescription" | "words" | "title";

type Branded<V> = V extends string ? Prose : V extends string | null ? Prose | null : V extends readonly string[] ? Prose[] : View<V>;

/** A model type as the emitters see it: every prose member (at any depth) is `Prose`. */
export type View<T> = T extends string | number | boolean | null | undefined
  ? T
  : T extends ReadonlyArray<infer U>
    ? Array<View<U>>
    : { [K in keyof T]: K extends ProseKey ? Branded<T[K]> : View<T[K]> };

export type Model = View<M.Model>;
export type KnownGap = View<M.KnownGap>;
export type Method = View<M.Method>;
export type Field = View<M.Field>;
export type TypeRef = View<M.TypeRef>;
export type Resource = View<M.Resource>;
export type ResultSpec = View<M.ResultSpec>;
export type MethodError = View<M.MethodError>;
export type StateTransition = View<M.StateTransition>;
export type Version = M.Version;
export type Source = M.Source;

/** Words as prose (a test's model node, written by hand). */
export const prose = (text: string): Prose => text as unknown as Prose;

/** The model as the emitters see it: the same object, its prose opaque (the emit stage's one entrance). */
export const view = (model: M.Model): Model => model as unknown as Model;
