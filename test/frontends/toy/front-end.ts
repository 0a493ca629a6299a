import type { Diagnostic } from "../../../generator/diagnostics/catalogue.js";
import { emptyFragments, emptyMethod } from "../../../generator/model/fragments.js";
import type { FrontEnd } from "../../../generator/model/front-end.js";
import type { Field, Method, TypeRef } from "../../../generator/model/types.js";

/**
 * A toy dialect, one statement a line, registered in a caller's front-end table (issue 27): the proof that a new
 * input dialect is an addition that changes nothing outside its own folder. It writes the same fragments the spec
 * reader writes, with positions of its own file.
 *
 *     title Toy API
 *     method legacy toy.item.get scope=toy
 *     param id integer required
 *     result object
 */
const TYPES: Record<string, TypeRef> = {
  integer: { kind: "primitive", type: "integer" },
  string: { kind: "primitive", type: "string" },
  boolean: { kind: "primitive", type: "boolean" },
  object: { kind: "object", members: [] },
};

export const TOY_FRONT_END: FrontEnd = {
  kind: "toy",
  detect: (source) => source.files.length === 1 && (source.files[0]?.path.endsWith(".toy") ?? false),
  read(source) {
    const input = source.files[0];
    const fragments = emptyFragments(input?.path ?? "");
    const diagnostics: Diagnostic[] = [];
    if (!input) return { fragments, diagnostics, secrets: [] };
    let method: Method | null = null;
    for (const [i, line] of input.text.split("\n").entries()) {
      const at = { file: input.path, line: i + 1, column: 1 };
      const [word, ...rest] = line.trim().split(/\s+/);
      if (!word) continue;
      if (word === "title") {
        fragments.title = { text: rest.join(" "), source: at };
      } else if (word === "method" && (rest[0] === "legacy" || rest[0] === "v3") && rest[1]) {
        method = emptyMethod(rest[1], rest[0], "Toy", at);
        const scope = rest.find((r) => r.startsWith("scope="));
        if (scope) method.scopes = [scope.slice("scope=".length)];
        fragments.methods.push(method);
      } else if (word === "param" && method && rest[0] && rest[1] && TYPES[rest[1]]) {
        const param: Field = { name: rest[0], type: TYPES[rest[1]] as TypeRef, required: rest[2] === "required", nullable: false, description: "", source: at };
        method.params.push(param);
      } else if (word === "result" && method && rest[0] && TYPES[rest[0]]) {
        method.result = { key: null, type: TYPES[rest[0]] as TypeRef, description: "", empty: [], source: at };
      } else {
        diagnostics.push({ ...at, endLine: at.line, endColumn: line.length + 1, severity: "warning", code: "unread-text", message: `Unexpected line, not understood by the toy reader: '${line}'`, hint: "" });
      }
    }
    return { fragments, diagnostics, secrets: [] };
  },
};
