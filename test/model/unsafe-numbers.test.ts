import { describe, expect, it } from "vitest";
import { buildFromText } from "../../generator/generate.js";
import { SPEC_TEXT } from "../helpers.js";

/**
 * A number past what JSON and JavaScript carry exactly is read as JavaScript makes it, and the reading says so at its
 * field (check/rules/unsafe-numbers.ts), where it was lost silently: an enum value of 20 digits, and one of 320 digits
 * (Infinity, which JSON writes as null).
 */
const ORIGINAL = "`status` integer, `1` enable (default), `0` disable.";

describe("numbers past 2^53", () => {
  it("the shipped spec and its safe values give no warning", () => {
    expect(SPEC_TEXT).toContain(ORIGINAL);
    expect(buildFromText(SPEC_TEXT, "spec.md").diagnostics.filter((d) => d.code === "unsafe-number")).toEqual([]);
  });

  it("an enum value and a default of too many digits are said at their field, with the number they are read as", () => {
    const big = "12345678901234567890";
    const huge = "9".repeat(320);
    const text = SPEC_TEXT.replace(ORIGINAL, `\`status\` integer, \`${big}\` enable (default), \`${huge}\` disable.`);
    const built = buildFromText(text, "spec.md");
    const warned = built.diagnostics.filter((d) => d.code === "unsafe-number");
    const line = text.split("\n").findIndex((l) => l.includes(big)) + 1;
    expect(warned.map((d) => [d.line, d.message])).toEqual([
      [line, expect.stringContaining("read as 12345678901234567000")],
      [line, expect.stringContaining("read as Infinity")],
      [line, expect.stringContaining("read as 12345678901234567000")],
    ]);
    expect(warned[0]?.message).toContain("'status'");
  });
});
