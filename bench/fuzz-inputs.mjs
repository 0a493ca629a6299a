// Hostile specs for the fuzz bench and the property test (issue 24): mutations of the real spec, and heavy kinds
// that a fuzzer of small edits does not reach (long lines, long tables, many short lines, deep nesting). Plain
// JavaScript so that the bench runs it without a build and the tests import it as it is.

/** A small deterministic generator (mulberry32): the same seed gives the same inputs on every machine. */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = ["`", "*", "**", "[", "]", "(", ")", "|", "#", "- ", "> ", "\n", "\n\n", "1. ", "<", ">", "\\", "_", "~~~", "```", "{", "}", ":", ";", ".", ",", " or ", " and ", "Scope ", "not shown", "$result[", "**x.y**."];

/** One small edit of `text`: a deletion, a duplication, an insertion of markup, a line moved or repeated. */
export function mutate(text, rnd) {
  const at = Math.floor(rnd() * text.length);
  const span = Math.floor(rnd() * 200);
  switch (Math.floor(rnd() * 6)) {
    case 0:
      return text.slice(0, at) + text.slice(at + span);
    case 1:
      return text.slice(0, at) + text.slice(at, at + span) + text.slice(at);
    case 2:
      return text.slice(0, at) + PIECES[Math.floor(rnd() * PIECES.length)] + text.slice(at);
    case 3: {
      const lines = text.split("\n");
      const i = Math.floor(rnd() * lines.length);
      const j = Math.floor(rnd() * lines.length);
      [lines[i], lines[j]] = [lines[j], lines[i]];
      return lines.join("\n");
    }
    case 4: {
      const lines = text.split("\n");
      const i = Math.floor(rnd() * lines.length);
      lines.splice(i, 0, ...Array.from({ length: 1 + Math.floor(rnd() * 20) }, () => lines[i]));
      return lines.join("\n");
    }
    default:
      return text.slice(0, at) + String.fromCharCode(Math.floor(rnd() * 0x2fff)) + text.slice(at);
  }
}

/** `count` mutated specs, each one to five edits of the original. */
export function* mutatedSpecs(spec, count, seed = 24) {
  const rnd = random(seed);
  for (let n = 0; n < count; n++) {
    let text = spec;
    const edits = 1 + Math.floor(rnd() * 5);
    for (let e = 0; e < edits; e++) text = mutate(text, rnd);
    yield { kind: "mutated", text };
  }
}

/** The heavy kinds, each inside a method section of the real spec: the inputs of the probe and larger. */
export function heavySpecs(spec) {
  const lines = spec.split("\n");
  const method = lines.findIndex((l) => l.startsWith("**tasks.task.getaccess**"));
  const table = lines.findIndex((l) => l.startsWith("| user fields |"));
  const inMethod = (extra) => [...lines.slice(0, method + 1), ...extra, ...lines.slice(method + 1)].join("\n");
  const inTable = (rows) => [...lines.slice(0, table + 1), ...rows, ...lines.slice(table + 1)].join("\n");
  const out = [];
  for (const mb of [1, 2, 5]) {
    const words = Math.floor((mb * 1024 * 1024) / 8);
    out.push({ kind: `a ${mb} MB line of words`, text: inMethod([`- Response \`result.x\` ${"a word ".repeat(words)}`]) });
  }
  // Emphasis runs: micromark's own resolution of `*b*` grows faster than the line (3.7 s for 128 KB in the remark
  // floor), so the line stays where the floor is measurable; the bound is relative to it.
  out.push({ kind: "a 128 KB line of backticks and stars", text: inMethod([`- ${"`a` *b* ".repeat(16 * 1024)}`]) });
  out.push({ kind: "a 1 MB line of '[a'", text: inMethod(["[a".repeat(512 * 1024)]) });
  out.push({ kind: "a 1 MB line of '$result['", text: inMethod(["$result[".repeat(128 * 1024)]) });
  out.push({ kind: "100,000 table rows", text: inTable(Array.from({ length: 100_000 }, (_, n) => `| g${n} | f${n}a, f${n}b |`)) });
  out.push({ kind: "100,000 parameter rows", text: inMethod(["", "| Parameter | Type | Required | Meaning |", "|---|---|---|---|", ...Array.from({ length: 100_000 }, (_, n) => `| \`p${n}\` | integer | yes | the ${n}th |`), ""]) });
  out.push({ kind: "200,000 short lines", text: inMethod(Array.from({ length: 200_000 }, (_, n) => `- \`p${n}\` integer`)) });
  out.push({ kind: "130,000 top-level blocks", text: [...lines.slice(0, method), ...Array.from({ length: 130_000 }, (_, n) => `Note ${n}.\n`), ...lines.slice(method)].join("\n") });
  // Nesting by indentation grows as its square (10,000 levels are 100 MB): 1,000 levels, 1 MB.
  out.push({ kind: "lists nested 1,000 deep", text: inMethod(Array.from({ length: 1_000 }, (_, n) => `${"  ".repeat(n)}- x`)) });
  out.push({ kind: "block quotes nested 10,000 deep", text: inMethod([`${"> ".repeat(10_000)}x`]) });
  out.push({ kind: "10,000 headings", text: inMethod(Array.from({ length: 10_000 }, (_, n) => `#### h${n}\n`)) });
  return out;
}
