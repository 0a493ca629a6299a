import { describe, expect, it } from "vitest";
import type { Field, MethodError } from "../../generator/model/types.js";
import { errorTrigger } from "../../generator/read/triggers.js";

/**
 * read/triggers.ts, the readings of a code alone for a URL parameter (the fault probe of issue 29: the mock kept
 * `ftp://…` and `not a url` handlers where the spec lists ERROR_UNSUPPORTED_PROTOCOL and ERROR_WRONG_HANDLER_URL).
 */
const at = { file: "spec.md", line: 1, column: 1 };
const field = (name: string, schemes?: string[]): Field => ({ name, type: { kind: "primitive", type: "string" }, required: false, nullable: false, description: "", source: at, ...(schemes ? { schemes } : {}) });
const error = (code: string | null, text: string | null = null): MethodError => ({ status: 400, statuses: [400], statusClass: null, statusFrom: "method", code, text, cause: null, source: at });
const handler = [field("event"), field("handler", ["http", "https"])];

describe("a code alone, of the method's one parameter with URL schemes", () => {
  it("a scheme not among them is a value not allowed; no URL, where the code names the parameter, a wrong type", () => {
    for (const code of ["ERROR_UNSUPPORTED_PROTOCOL", "UNSUPPORTED_PROTOCOL", "ERROR_UNSUPPORTED_SCHEME"]) expect(errorTrigger(error(code), handler), code).toEqual({ parameter: "handler", failure: "value", words: code });
    for (const code of ["ERROR_WRONG_HANDLER_URL", "INVALID_HANDLER_URL", "BAD_HANDLER_URL"]) expect(errorTrigger(error(code), handler), code).toEqual({ parameter: "handler", failure: "type", words: code });
  });

  it("links nothing where the code names another parameter, where words say more, or where no parameter (or two) has schemes", () => {
    expect(errorTrigger(error("ERROR_WRONG_OTHER_URL"), handler)).toBeNull();
    expect(errorTrigger(error("ERROR_NOT_UNSUPPORTED_PROTOCOLS"), handler)).toBeNull();
    expect(errorTrigger(error("ERROR_UNSUPPORTED_PROTOCOL", "Something else entirely"), handler)).toBeNull();
    expect(errorTrigger(error("ERROR_UNSUPPORTED_PROTOCOL"), [field("event"), field("handler")])).toBeNull();
    expect(errorTrigger(error("ERROR_UNSUPPORTED_PROTOCOL"), [field("a", ["http"]), field("b", ["https"])])).toBeNull();
    expect(errorTrigger(error(null), handler)).toBeNull();
  });

  it("a long code of repeated words is read by its end: the same answer as a short one", () => {
    // The pattern it replaced searched from each `BAD_`: 64,000 of them took 10 s (the review); the answer is read from
    // the code's last words now. The benchmarks' fuzz run holds the time; this holds the answers.
    expect(errorTrigger(error(`${"BAD_".repeat(64_000)}HANDLER_URL`), handler)).toEqual({ parameter: "handler", failure: "type", words: `${"BAD_".repeat(64_000)}HANDLER_URL` });
    expect(errorTrigger(error(`${"BAD_".repeat(64_000)}X`), handler)).toBeNull();
  });
});
