import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readStates } from "../../generator/emit/server/mock.js";
import { linkFields } from "../../generator/model/questions.js";
import { view } from "../../generator/model/view.js";
import { modelOf, SPEC_TEXT } from "../helpers.js";
import { readSpec } from "../../generator/read/index.js";
import { specFile } from "../../generator/parse/markdown.js";

/**
 * Model version 3 (issue 27): what a States row does is a typed `effect` read by the front end
 * (read/state-effects.ts), and the server's answers, the link members and the 3.0 error body's gap are typed
 * platform facts (read/phrases.ts). The mock and the emitters act on these and read no word of the rows.
 */

const REWRITES = ["careful-writer", "hurried-developer", "platform-docs-style"] as const;
const rewrite = (name: string) => readFileSync(new URL(`../fixtures/other-hands/${name}/collaboration-platform-api.md`, import.meta.url), "utf8");
const spec = modelOf(SPEC_TEXT);

describe("States rows as typed effects", () => {
  it("every row of the shipped spec is read, each into the effect its words say", () => {
    const effects = spec.states.transitions.map((t) => t.effect);
    expect(effects.map((e) => e.kind)).toEqual(["set", "link", "link", "set", "store", "require", "idempotency", "idempotency", "offline-reserve", "offline-clear", "offline-error", "hidden-until-installed", "installation", "unique-binding"]);
    expect(effects[0]).toEqual({ kind: "set", method: "tasks.task.unpin", member: null, field: "isPinned", value: "N" });
    expect(effects[1]).toEqual({ kind: "link", method: "documentgenerator.document.enablepublicurl", param: "status", value: 1, on: true, byDefault: true, field: "publicUrl" });
    // "same method with status 0": the row above's method.
    expect(effects[2]).toMatchObject({ method: "documentgenerator.document.enablepublicurl", value: 0, on: false, byDefault: false });
    expect(effects[3]).toEqual({ kind: "set", method: "vote.AttachedVote.recall", member: "attach", field: "isVoted", value: false });
    // The error is named by code and text: the method lists two errors whose code is "".
    expect(effects[5]).toEqual({
      kind: "require",
      method: "telephony.externalCall.attachRecord",
      collection: "statistics",
      error: { code: "", text: "Call is not found in the statistic table. Looks like it is not finished yet." },
      replaces: true,
      choice: { given: "FILENAME", absent: ["FILE_CONTENT", "RECORD_URL"], member: "uploadUrl" },
    });
    expect(effects[13]).toEqual({ kind: "unique-binding", method: "event.bind", code: "ERROR_CORE" });
  });

  it.each(REWRITES)("%s: the rows in its words give the same effects (the mock behaves the same)", (name) => {
    const model = modelOf(rewrite(name));
    const key = (e: unknown) => JSON.stringify(e);
    expect(model.states.transitions.map((t) => key(t.effect)).sort()).toEqual(spec.states.transitions.map((t) => key(t.effect)).sort());
    const strip = (s: ReturnType<typeof readStates>["states"]) => s.map(({ row: _row, ...rest }) => JSON.stringify(rest)).sort();
    expect(strip(readStates(view(model)).states)).toEqual(strip(readStates(view(spec)).states));
  });

  it("a row in words no reading knows is unread, and the mock lists it with its line rather than guess", () => {
    const model = modelOf(SPEC_TEXT.replace("call already finished (present in statistics)", "the call has ended"));
    const row = model.states.transitions.find((t) => t.subject === "Finished external call");
    expect(row?.effect).toEqual({ kind: "unread", method: "telephony.externalCall.attachRecord" });
    const { states, unmodelled } = readStates(view(model));
    expect(states.some((s) => s.kind === "require")).toBe(false);
    expect(unmodelled).toContainEqual({ row: row?.source.line, text: expect.stringContaining("Finished external call"), why: "no reading of the mock recognises this row" });
  });

  it("a row about a method the spec does not have is no behaviour of another method", () => {
    const model = modelOf(SPEC_TEXT.replace("| Task pin flag `isPinned` | `tasks.task.unpin` |", "| Task pin flag `isPinned` | `tasks.task.unpinAll` |"));
    expect(model.states.transitions[0]?.effect).toEqual({ kind: "unread", method: null });
    expect(readStates(view(model)).states.some((s) => s.kind === "set" && s.field === "isPinned")).toBe(false);
  });
});

describe("the server's answers, the link members and the gap topics as platform facts", () => {
  it("the shipped spec states them: the administrator's ACCESS_DENIED by its method, code and text; both insufficient_scope texts", () => {
    const a = spec.platform.answers;
    expect(a.notAdministrator.value).toEqual({ method: "messageservice.sender.update", version: "legacy", code: "ACCESS_DENIED", text: "Access denied!" });
    expect(a.insufficientScope.value).toEqual({
      webhook: "The request requires higher privileges than provided by the webhook token",
      application: "The request requires higher privileges than provided by the access token",
    });
    expect(a.notAdministrator.source?.line).toBeGreaterThan(0);
    // The paging gap's topic is what the merge answers it by (model/merge.ts), no longer a regex over its words there.
    expect(spec.knownGaps.filter((g) => g.topic).map((g) => [g.topic, g.subject])).toEqual([
      ["paging-members", "Members of the response that continue paging"],
      ["v3-error-body", "Body shape of 3.0 error responses"],
    ]);
  });

  it("links: the file table's members, not those it passes on, a prefix, the envelope's result or a row with no link; members typed as objects never", () => {
    expect(linkFields(view(spec))).toEqual(["CALL_RECORD_URL", "DOWNLOAD_URL", "PERSONAL_PHOTO", "archiveLink", "downloadMachine", "downloadUrl", "downloadUrlMachine", "fileUrl", "file_url", "urlDownload", "urlMachine"]);
    // Read from the words, not a list: a row that passes `CALL_RECORD_URL` on makes it no link.
    const passed = modelOf(SPEC_TEXT.replace("| `CALL_RECORD_URL` |", "| `CALL_RECORD_URL`, then `voximplant.statistic.get` |"));
    expect(linkFields(view(passed))).not.toContain("CALL_RECORD_URL");
    // `creator` is described as a link nowhere but typed as a user: never a link, whatever its words.
    expect(spec.platform.links.value).toEqual(expect.arrayContaining(["CALL_RECORD_URL", "urlMachine"]));
    expect(linkFields(view(spec))).not.toContain("creator");
  });

  it("in other words: 'administrators' (plural); 'the link in `X`' keeps X a link; an ending whose first word the text lacks changes nothing", () => {
    const plural = modelOf(SPEC_TEXT.replaceAll("caller not administrator", "only portal administrators may call"));
    expect(plural.platform.answers.notAdministrator.value).toMatchObject({ code: "ACCESS_DENIED", text: "Access denied!" });
    const linkIn = modelOf(SPEC_TEXT.replace("| `CALL_RECORD_URL` |", "| the link in `CALL_RECORD_URL` |"));
    expect(linkFields(view(linkIn))).toContain("CALL_RECORD_URL");
    const ending = modelOf(SPEC_TEXT.replace("for applications the text ends with `provided by the access token`", "for applications the text ends with `access token`"));
    expect(ending.platform.answers.insufficientScope.value?.application).toBe("The request requires higher privileges than provided by the webhook token");
  });

  it("the merged model takes the reference's answers where the spec states none", async () => {
    const { mergeModels } = await import("../../generator/model/merge.js");
    const none = { value: null, source: null };
    const quiet = { ...spec, platform: { ...spec.platform, answers: { notAdministrator: none, insufficientScope: none } } };
    const merged = mergeModels(quiet, spec).model;
    expect(merged.platform.answers).toEqual(spec.platform.answers);
    expect(mergeModels(spec, quiet).model.platform.answers).toEqual(spec.platform.answers);
  });

  it("an input that states none: no answers and no links, without a gap (the server answers a method's own error)", () => {
    const model = modelOf("# Small API\n\n## Endpoints\n\n### Area\n\n**a.b**. Scope `x`. Any user. No parameters. Result: boolean.\n");
    expect(model.platform.answers).toEqual({ notAdministrator: { value: null, source: null }, insufficientScope: { value: null, source: null } });
    expect(model.platform.links).toEqual({ value: [], source: null });
    expect(model.knownGaps.some((g) => /administrator|insufficient|\blinks?\b/i.test(g.subject))).toBe(false);
  });
});

describe("a transport rule as the front end reads it", () => {
  const rule = "4. In 3.0 methods without parameters accept GET or POST.";
  const transport = (text: string) => readSpec(specFile("spec.md", text)).fragments.facts.transport;
  it.each([
    ["the spec's", rule],
    ["the hurried developer's", "4. 3.0: methods w/o params accept GET or POST."],
    ["the careful writer's", "4. **HTTP verb for parameterless 3.0 methods.** GET or POST."],
    ["the platform docs'", "4. In 3.0, methods without parameters accept both GET and POST."],
  ])("%s words: 3.0 methods without parameters take GET", (_who, words) => {
    expect(SPEC_TEXT).toContain(rule);
    expect(transport(SPEC_TEXT.replace(rule, words))).toEqual({ v3GetWithoutParams: true });
  });

  it.each([
    ["another clause's verbs", "4. In 3.0 methods without parameters accept POST only; legacy methods accept GET or POST."],
    ["a parenthesis's", "4. In 3.0 methods without parameters are called with POST (legacy: GET or POST)."],
    ["a negation", "4. In 3.0 methods without parameters do not accept GET or POST bodies."],
  ])("%s is no such rule (review: the verbs anywhere in the rule were taken)", (_what, words) => {
    expect(transport(SPEC_TEXT.replace(rule, words))).toEqual({ v3GetWithoutParams: false });
  });

  it("without the rule no method gains GET by it; with it, each 3.0 method that takes none does", () => {
    const scopeList = (m: ReturnType<typeof modelOf>) => m.methods.find((x) => x.version === "v3" && x.name === "rest.scope.list")?.httpMethods;
    // rest.scope.list says "no parameters" and no verb: GET comes from the rule alone.
    expect(scopeList(modelOf(SPEC_TEXT.replace(rule, "4. In 3.0 methods are called with POST.")))).toEqual(["POST"]);
    expect(scopeList(modelOf(SPEC_TEXT))).toEqual(["GET", "POST"]);
    const withRule = modelOf(SPEC_TEXT).methods.filter((m) => m.version === "v3" && m.described && m.params.length === 0);
    expect(withRule.length).toBeGreaterThan(0);
    expect(withRule.every((m) => m.httpMethods.includes("GET"))).toBe(true);
  });
});
