import { redactSecrets } from "../util/redact.js";
import type { Change, CompareReport, DiffReport, Position } from "./index.js";
import type { Severity } from "./rules.js";

/**
 * The four formats of `collab-rest-codegen diff` (docs/contracts.md): `text`, one change a line as compilers print
 * them; `json`, the contract's object; `markdown`, a table for a pull-request comment; `github`, workflow commands
 * that annotate the new spec's lines. Spec text quoted in messages is redacted as diagnostics are.
 */

export type DiffFormat = "text" | "json" | "markdown" | "github";

const at = (p: Position | null) => (p ? `${p.file}:${p.line}:${p.column}` : "-");

function audiences(c: Change): string {
  return Object.entries(c.audiences)
    .map(([a, s]) => `${a} ${s}`)
    .join(", ");
}

function counts(report: DiffReport): string {
  const n: Record<Severity, number> = { breaking: 0, minor: 0, patch: 0 };
  for (const c of report.changes) n[c.severity]++;
  return `${n.breaking} breaking, ${n.minor} minor, ${n.patch} patch`;
}

/** `bump: minor (0 breaking, 2 minor, 1 patch)`: the line `generate` prints as its summary too. */
export function summaryLine(report: DiffReport): string {
  return `bump: ${report.bump} (${counts(report)})`;
}

function text(report: DiffReport): string {
  const lines = report.changes.map((c) => {
    const was = c.from && c.to && c.from.line !== c.to.line ? ` (was at ${at(c.from)})` : "";
    return `${at(c.to ?? c.from)}: ${c.severity} ${c.code}: ${c.message}${was} [${audiences(c)}]`;
  });
  return [...lines, summaryLine(report)].join("\n") + "\n";
}

function cell(s: string): string {
  return s.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\n/g, " ");
}

function markdown(report: DiffReport): string {
  const head = [`### Spec changes: ${report.bump === "none" ? "none" : `**${report.bump}** version bump`}`, "", counts(report), ""];
  if (report.changes.length === 0) return [...head.slice(0, 2), "The two specs describe the same API.", ""].join("\n");
  const rows = report.changes.map(
    (c) =>
      `| ${c.severity} | \`${c.code}\` | ${cell(c.message)} | ${c.audiences.client ?? ""} | ${c.audiences.server ?? ""} | ${c.from ? `\`${at(c.from)}\`` : ""} | ${c.to ? `\`${at(c.to)}\`` : ""} |`,
  );
  return [...head, "| Severity | Code | Change | Client | Server | Old | New |", "|---|---|---|---|---|---|---|", ...rows, ""].join("\n");
}

function escapeData(s: string): string {
  return s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}
function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

/** Breaking changes annotate as errors, additions as warnings, wording as notices; removals at the place that held them. */
function github(report: DiffReport, path: (file: string) => string): string {
  const level: Record<Severity, string> = { breaking: "error", minor: "warning", patch: "notice" };
  const lines = report.changes.map((c) => {
    const props = `file=${escapeProperty(path(c.at.file))},line=${c.at.line},col=${c.at.column},title=${escapeProperty(`${c.code} (${c.severity})`)}`;
    return `::${level[c.severity]} ${props}::${escapeData(`${c.message} [${audiences(c)}]`)}`;
  });
  return [...lines, `::notice::${escapeData(summaryLine(report))}`].join("\n") + "\n";
}

export function formatDiff(report: DiffReport, format: DiffFormat, options: { githubPath?: (file: string) => string } = {}): string {
  const safe: DiffReport = { bump: report.bump, changes: report.changes.map((c) => ({ ...c, message: redactSecrets(c.message) })) };
  switch (format) {
    case "json":
      return `${JSON.stringify({ bump: safe.bump, changes: safe.changes.map(({ at: _at, ...c }) => c) }, null, 2)}\n`;
    case "markdown":
      return markdown(safe);
    case "github":
      return github(safe, options.githubPath ?? ((f) => f));
    case "text":
      return text(safe);
  }
}

/**
 * The formats of `collab-rest-codegen compare` (decisions.md D15): `diff`'s, with both positions on every line (the
 * spec's, then the reference's) and a summary in place of the bump, since two inputs that disagree are no versions.
 */
export function formatCompare(report: CompareReport, format: DiffFormat, options: { githubPath?: (file: string) => string } = {}): string {
  const changes = report.changes.map((c) => ({ ...c, message: redactSecrets(c.message) }));
  const n: Record<Severity, number> = { breaking: 0, minor: 0, patch: 0 };
  for (const c of changes) n[c.severity]++;
  const { both, specOnly, referenceOnly } = report.methods;
  const summary = `${changes.length} divergence(s) over ${both} method(s) both describe (${specOnly} the spec's alone, ${referenceOnly} the reference's alone): ${n.breaking} breaking, ${n.minor} minor, ${n.patch} patch`;
  switch (format) {
    case "json":
      return `${JSON.stringify({ methods: report.methods, changes: changes.map(({ at: _at, ...c }) => c) }, null, 2)}\n`;
    case "markdown": {
      const head = ["### The spec and the platform's reference", "", summary, ""];
      if (changes.length === 0) return [...head, "They agree on every method both describe.", ""].join("\n");
      const rows = changes.map((c) => `| ${c.severity} | \`${c.code}\` | ${cell(c.message)} | ${c.from ? `\`${at(c.from)}\`` : ""} | ${c.to ? `\`${at(c.to)}\`` : ""} |`);
      return [...head, "| Severity | Code | Divergence | Spec | Reference |", "|---|---|---|---|---|", ...rows, ""].join("\n");
    }
    case "github": {
      // The spec's lines are annotated: the pull request that changes the spec is where a divergence is decided.
      const level: Record<Severity, string> = { breaking: "error", minor: "warning", patch: "notice" };
      const path = options.githubPath ?? ((f) => f);
      const lines = changes.map((c) => {
        const p = c.from ?? c.at;
        const props = `file=${escapeProperty(path(p.file))},line=${p.line},col=${p.column},title=${escapeProperty(`${c.code} (${c.severity})`)}`;
        return `::${level[c.severity]} ${props}::${escapeData(`${c.message}${c.to ? ` (the reference: ${at(c.to)})` : ""}`)}`;
      });
      return [...lines, `::notice::${escapeData(summary)}`].join("\n") + "\n";
    }
    case "text":
      return [...changes.map((c) => `${at(c.from)} ~ ${at(c.to)}: ${c.severity} ${c.code}: ${c.message}`), summary].join("\n") + "\n";
  }
}
