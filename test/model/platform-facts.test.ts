import { describe, expect, it } from "vitest";
import { generate } from "../../generator/generate.js";
import { GEN, modelOf, SPEC_TEXT } from "../helpers.js";

/**
 * Issue 27: the platform's facts the generated code acts on are typed members of the model, each with its source:
 * the spec front end reads them in the spec's words (read/phrases.ts), and one place in the model puts in the
 * documented default, with a `not-stated` gap, for any the input does not state (model/platform.ts).
 */

describe("platform facts", () => {
  it("the shipped spec states every one of them: each has its row as source, and no default gap is added", () => {
    const model = modelOf(SPEC_TEXT);
    const p = model.platform;
    expect(p.codes.retry.value).toEqual(["INTERNAL_SERVER_ERROR", "ERROR_UNEXPECTED_ANSWER", "QUERY_LIMIT_EXCEEDED", "OPERATION_TIME_LIMIT"]);
    expect([p.codes.expiredToken.value, p.codes.queryLimit.value, p.codes.wrongAuthType.value, p.codes.invalidToken.value]).toEqual(["expired_token", "QUERY_LIMIT_EXCEEDED", "WRONG_AUTH_TYPE", "invalid_token"]);
    for (const f of [p.codes.retry, p.codes.expiredToken, p.codes.operationTimeLimit, p.codes.queryLimit, p.codes.wrongAuthType, p.codes.unexpectedAnswer, p.codes.invalidToken, p.paging.pageSize, p.paging.listMethods, p.idempotency.keyLength, p.idempotency.retentionHours, p.builtIns.documentation, p.builtIns.scopeList]) {
      expect(f.source?.line).toBeGreaterThan(0);
    }
    expect(p.paging).toMatchObject({ pageSize: { value: 50 }, listMethods: { value: ["sale.paysystem.list", "mailservice.list"] } });
    expect(p.idempotency.keyLength.value).toMatchObject({ min: 1, max: 255 });
    expect(p.idempotency.retentionHours.value).toBe(24);
    expect(p.builtIns.documentation.value).toEqual(["rest.documentation.openapi", "documentation"]);
    expect(model.knownGaps.filter((g) => /the platform's$/.test(g.subject))).toEqual([]);
  });

  it("a spec that states none: the documented defaults, each a not-stated gap at the title", () => {
    const model = modelOf("# Small API\n\n## Endpoints\n\n### Area\n\n**a.b**. Scope `x`. Any user. No parameters. Result: boolean.\n");
    const p = model.platform;
    expect(p.codes.expiredToken).toEqual({ value: "expired_token", source: null });
    expect(p.paging.pageSize).toEqual({ value: 50, source: null });
    expect(p.idempotency.retentionHours).toEqual({ value: 24, source: null });
    const defaults = model.knownGaps.filter((g) => g.kind === "not-stated" && /the platform's$/.test(g.subject));
    expect(defaults.map((g) => g.subject)).toContain('The code of an expired access token: read as "expired_token", the platform\'s');
    expect(defaults.every((g) => g.source.line === 1 && g.appliesTo.length === 0)).toBe(true);
  });

  it("the client acts on the fact, whatever the catalogue calls the code", async () => {
    const text = SPEC_TEXT.replace("| 401 | expired_token | token expired; refresh it |", "| 401 | token_gone | token expired; refresh it |");
    const model = modelOf(text);
    expect(model.platform.codes.expiredToken.value).toBe("token_gone");
    const r = await generate(text, GEN);
    const data = r.files.find((f) => f.path === "client/methods.js")?.contents ?? "";
    expect(data).toContain('"expiredToken":"token_gone"');
  });

  it("in other hands' words: a 'Why' column, 'req rate exceeded', 'needs an app context', 'page size', '1–255', '24 h', 'OpenAPI doc', 'method → scope mapping'", () => {
    // Each of these was left to its default (with a not-stated gap) before: the rewrites of test/fixtures/other-hands
    // said them so, and the client retried nothing and paged no list method (issue 26's silent loss).
    const text = SPEC_TEXT.replace("| Status | Code | Text | Cause |", "| Status | Code | Text | Why |")
      .replace("| request rate exceeded |", "| req rate exceeded |")
      .replace("| List page size | up to 50 records |", "| page size | up to 50 records |")
      .replace("| Idempotency key length | 1 to 255 printable ASCII characters |", "| idempotency key length | 1–255 printable ASCII chars |")
      .replace("| Idempotency response retention | 24 hours |", "| retention of idempotent responses | 24 h |")
      .replace("Returns the method-to-scope mapping for all modules.", "Returns: method → scope mapping, all modules.");
    expect(text).not.toBe(SPEC_TEXT);
    const p = modelOf(text).platform;
    expect(p.codes.retry.value).toEqual(["INTERNAL_SERVER_ERROR", "ERROR_UNEXPECTED_ANSWER", "QUERY_LIMIT_EXCEEDED", "OPERATION_TIME_LIMIT"]);
    expect(p.codes.queryLimit.source?.line).toBeGreaterThan(0);
    expect([p.paging.pageSize.source?.line, p.paging.listMethods.value]).toEqual([expect.any(Number), ["sale.paysystem.list", "mailservice.list"]]);
    expect(p.idempotency.keyLength.value).toMatchObject({ min: 1, max: 255 });
    expect(p.idempotency.retentionHours).toMatchObject({ value: 24, source: expect.objectContaining({ line: expect.any(Number) }) });
    expect(p.builtIns.scopeList.value).toEqual(["rest.scope.list"]);
    const wrong = modelOf(SPEC_TEXT.replace("method needs application context, request came by webhook", "the method needs an app context, but the request came by webhook")).platform.codes.wrongAuthType;
    expect(wrong.source?.line).toBeGreaterThan(0);
  });
});
