// Writes spec-source/README.md's table of method forms from generator/read/forms.ts and method-forms.ts (issue 27), between the markers
// `<!-- method-forms:begin -->` and `<!-- method-forms:end -->`: `node test/support/forms-table.mjs --write` after
// `npm run build`. Without `--write` it prints the table. test/read/forms-table.test.ts checks the README holds it.
import { readFileSync, writeFileSync } from "node:fs";
import { methodFormsTable } from "../../dist/generator/read/method-forms.js";

const README = new URL("../../spec-source/README.md", import.meta.url);
const BEGIN = "<!-- method-forms:begin (written from generator/read/forms.ts by test/support/forms-table.mjs) -->";
const END = "<!-- method-forms:end -->";
const table = methodFormsTable();
if (!process.argv.includes("--write")) {
  process.stdout.write(`${table}\n`);
} else {
  const text = readFileSync(README, "utf8");
  const at = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (at < 0 || end < at) throw new Error("spec-source/README.md has no method-forms markers");
  writeFileSync(README, `${text.slice(0, at + BEGIN.length)}\n\n${table}\n\n${text.slice(end)}`);
}
