import { describe, expect, it } from "vitest";
import { TemplateError, render } from "../../generator/emit/templates.js";

describe("templates", () => {
  it("a template that uses a view member the emitter does not give fails at its line and column (strict mode)", () => {
    const name = "types/README.md.hbs";
    expect(() => render({ [name]: "ok\n {{missing}}" }, name, { header: "h", name: "n", title: "t", areas: [] })).toThrow(
      expect.objectContaining({ template: name, line: 2, column: 4, reason: expect.stringContaining('"missing" not defined') }),
    );
    expect(() => render({ [name]: "{{#unknownHelper}}{{/unknownHelper}}" }, name, { header: "h", name: "n", title: "t", areas: [] })).toThrow(TemplateError);
    expect(() => render({ [name]: "a\n\n  {{#each x}}" }, name, { header: "h", name: "n", title: "t", areas: [] })).toThrow(expect.objectContaining({ line: 3, reason: expect.stringMatching(/^parse error/) }));
  });
});
