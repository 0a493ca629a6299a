import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the test support, without declarations
import { examplesOf, readExample, standIns } from "../support/examples.mjs";

/** The published examples' reading (test/support/examples.mjs), which the platform test's floors count on. */

const require = createRequire(import.meta.url);
const { Ajv } = require("ajv") as typeof import("ajv");
const fence = (lang: string, body: string) => ["    ```" + lang, ...body.split("\n").map((l) => `    ${l}`), "    ```"].join("\n");
const WEBHOOK = "https://**put_your_bitrix24_address**/rest/**put_your_user_id_here**/**put_your_webhook_here**";

describe("the examples of a page", () => {
  it("takes the body of every cURL tab, however fenced and wherever it stands, and the method its URL calls", () => {
    const page = [
      "# Add a thing",
      "## Code Examples",
      "",
      fence("bash", `curl -X POST \\\n-H "Content-Type: application/json" \\\n-d '{"fields":{"NAME":"a"}}' \\\n${WEBHOOK}/crm.thing.add`),
      "",
      // `curl` fences that open at `-X POST`, without the word.
      fence("curl", `-X POST \\\n-d '{"id":1}' \\\nhttps://**put_your_bitrix24_address**/rest/crm.thing.get.json`),
      "## Examples",
      "",
      fence("http", `curl -X POST \\\n-d '{"name":"Children's Toys"}' \\\nhttps://x/rest/api/tasks.task.add`),
      "",
      // Not a cURL tab: a JS tab, and a shell block with no request.
      fence("js", "await $b24.callMethod('crm.thing.add', { fields: {} });"),
      fence("bash", "npm install @bitrix24/b24jssdk"),
      "## Response Handling",
      "",
      fence("json", '{"result": 1, "time": {}}'),
      "## Error Handling",
      "",
      fence("json", '{"error": "ERROR_CORE", "error_description": "x"}'),
    ].join("\n");
    const found = examplesOf(page) as Array<{ kind: string; text: string; line: number; method?: { name: string; version: string }; codeTab?: boolean }>;
    expect(found.map((e) => [e.kind, e.text, e.method?.version, e.method?.name, e.codeTab ?? false])).toEqual([
      ["request", '{"fields":{"NAME":"a"}}', "legacy", "crm.thing.add", true],
      // `.json` names the answer's format, not the method.
      ["request", '{"id":1}', "legacy", "crm.thing.get", false],
      // A quote inside the body does not end it; `/rest/api/` is a 3.0 call.
      ["request", '{"name":"Children\'s Toys"}', "v3", "tasks.task.add", false],
      ["response", '{"result": 1, "time": {}}', undefined, undefined, false],
      ["error", '{"error": "ERROR_CORE", "error_description": "x"}', undefined, undefined, false],
    ]);
    // Lines are the page's: the body's own line for a request, the block's first line for the others.
    const lines = page.split("\n");
    for (const e of found) expect(lines[e.line - 1]).toContain(e.text.slice(0, 8));
    // Two commands in one block (offline-events.md): both bodies, each with the method its own URL calls.
    const two = examplesOf(fence("bash", `curl -X POST \\\n-d '{"a":1}' \\\n${WEBHOOK}/event.offline.get\ncurl -X POST \\\n-d '{"b":2}' \\\n${WEBHOOK}/event.offline.clear`)) as Array<{ text: string; method?: { name: string } }>;
    expect(two.map((e) => [e.text, e.method?.name])).toEqual([
      ['{"a":1}', "event.offline.get"],
      ['{"b":2}', "event.offline.clear"],
    ]);
    // A URL written before its body is its own command's, not the next one's (review).
    const before = examplesOf(fence("bash", `curl -X POST ${WEBHOOK}/event.offline.get -d '{"a":1}'\ncurl -X POST ${WEBHOOK}/event.offline.clear -d '{"b":2}'`)) as Array<{ text: string; method?: { name: string } }>;
    expect(before.map((e) => [e.text, e.method?.name])).toEqual([
      ['{"a":1}', "event.offline.get"],
      ['{"b":2}', "event.offline.clear"],
    ]);
    // 16,000 commands in one block: each body on its line and with its method, in linear time (counting each body's
    // line from the block's start took 7.3 s here, review). A hang guard, far above the 60 ms it takes.
    const many = ["```bash", ...Array.from({ length: 16_000 }, (_, k) => `curl -X POST \\\n-d '{"k":${k}}' \\\n${WEBHOOK}/m.a${k % 3}`), "```"].join("\n");
    const started = performance.now();
    const read = examplesOf(many) as Array<{ line: number; method?: { name: string } }>;
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(read).toHaveLength(16_000);
    expect([read[5]?.line, read[5]?.method?.name, read[15_999]?.line]).toEqual([18, "m.a2", 3 + 3 * 15_999]);
    // Many `-d '` that no quote at a line's end closes, and a URL of many segments: linear (probe: each body was
    // searched for to the text's end, 5.9 s at 40,000; the URL's path tried at each slash, 24 s at 20,000).
    const hostile = performance.now();
    expect(examplesOf(["```bash", "curl", `-d 'x `.repeat(40_000), "```"].join("\n"))).toEqual([]);
    const long = examplesOf(["## Code Examples", "```bash", "curl -d '{}'", `${"/rest/a".repeat(20_000)}#`, "```"].join("\n")) as Array<{ text: string }>;
    expect(performance.now() - hostile).toBeLessThan(2_000);
    expect(long.map((e) => e.text)).toEqual(["{}"]);
  });

  it("reads a shell splice and a bare placeholder as placeholder strings, each quirk counted", () => {
    const shell = readExample(`{"ownerId":1,"deadline":"'"$(date --date='-6 months' +%F)"'","id": '"$id"'}`);
    expect(shell.value).toEqual({ ownerId: 1, deadline: "**shell**", id: "**shell**" });
    expect(shell.quirks).toContain("shell substitution");
    // A splice inside a string is text of that string, as the shell joins it (probe: quoted whole in place, it broke
    // the string); a splice is the shell's quirk, not a bare placeholder's.
    const inString = readExample(`{"a": "Task created '"$(date)"' by bot", "b": "x'"$id"'y"}`);
    expect(inString).toEqual({ value: { a: "Task created **shell** by bot", b: "x**shell**y" }, strict: false, quirks: ["shell substitution"] });
    const bare = readExample('{"attachId":**put_attach_id**,"answerId": **put_answer_id** }');
    expect(bare.value).toEqual({ attachId: "**put_attach_id**", answerId: "**put_answer_id**" });
    expect(bare.quirks).toContain("placeholder");
    // Inside a string, neither is read so (review): a text that mentions `**John**`, `'$5'` or `'$NAME'` keeps it; an
    // escaped quote does not end the string, a single-quoted (JSON5) string is one, and a quote in a comment opens none.
    expect(readExample(`{"text":"Hi, **John**, welcome","note":"costs '$5' today","user":"user '$NAME' x","a":1,}`).value).toEqual({ text: "Hi, **John**, welcome", note: "costs '$5' today", user: "user '$NAME' x", a: 1 });
    expect(readExample('{"a":"say \\"**x**\\" now",}').value).toEqual({ a: 'say "**x**" now' });
    expect(readExample("{'a':'**x**', b: **y**,}").value).toEqual({ a: "**x**", b: "**y**" });
    expect(readExample('{"a": **p**, // it\'s "quoted"\n "b": **q**}').value).toEqual({ a: "**p**", b: "**q**" });
    // Lines of spaces or newlines by the ten thousand, around `...`: linear (review: 40,000 newlines took 2 s).
    const started = performance.now();
    expect(readExample(`{"a":1,${"\n".repeat(40_000)}}`).value).toEqual({ a: 1 });
    expect(readExample(`{"a":[1, ${" ".repeat(60_000)}...]}`).value).toEqual({ a: [1] });
    expect(performance.now() - started).toBeLessThan(1_000);
    // Strict JSON is read as it is, quirks none; a text that stays broken is unreadable.
    expect(readExample('{"a":"\'$x\'"}')).toEqual({ value: { a: "'$x'" }, strict: true, quirks: [] });
    expect(readExample('{"a":[1,2}').value).toBeUndefined();
  });

  it("stands a value in for a placeholder only where the schema refuses it as written, and checks the rest", () => {
    const ajv = new Ajv({ strict: false });
    const validate = ajv.compile({
      type: "object",
      properties: { id: { type: "integer" }, title: { type: "string" }, kind: { enum: ["a", "b"] }, count: { type: "integer" } },
    });
    // A string placeholder where a string goes stays; where an integer or an enum goes, a value is stood in.
    const r = standIns(validate, { id: "**put_id_here**", title: "**put_title_here**", kind: "**put_kind**" });
    expect(r).toEqual({ value: { id: 1, title: "**put_title_here**", kind: "a" }, count: 2 });
    // A string that is no placeholder is not replaced: the example is still refused for it.
    const wrong = standIns(validate, { id: "**put_id_here**", count: "three" });
    expect(wrong.count).toBe(1);
    expect(wrong.value).toEqual({ id: 1, count: "three" });
    expect(validate(wrong.value)).toBe(false);
  });
});
