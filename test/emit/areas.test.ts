import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { areaKey, splitAreas, usedNames } from "../../generator/emit/areas.js";
import { typedMethods } from "../../generator/model/questions.js";
import { prose, view } from "../../generator/model/view.js";
import { generate } from "../../generator/generate.js";
import { GEN, ROOT, SPEC_PATH, SPEC_TEXT, endpointSpec, modelOf } from "../helpers.js";

/** The area split of the types and client packages (D14, issue 16). */

const work = mkdtempSync(join(tmpdir(), "crc-areas-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const split = (text: string) => {
  const model = view(modelOf(text));
  return { model, ...splitAreas(model, { legacy: typedMethods(model, "legacy"), v3: typedMethods(model, "v3") }) };
};

/** The keys of an interface's members in a generated declarations text. */
function mapKeys(text: string, name: string): string[] {
  const body = new RegExp(`^export interface ${name} \\{\\n([\\s\\S]*?)^\\}`, "m").exec(text)?.[1] ?? "";
  return [...body.matchAll(/^ {2}"?([^"\s:]+)"?: MethodSpec/gm)].map((m) => m[1] as string);
}

/** The real spec with the Tasks area copied under other names (`copy1.tasks.task.get`), as bench/generator.mjs does. */
function copiedTasks(times: number): string {
  const lines = SPEC_TEXT.split("\n");
  const start = lines.indexOf("### Tasks");
  const end = lines.indexOf("### Telephony");
  const copies = Array.from({ length: times }, (_, i) =>
    lines
      .slice(start, end)
      .join("\n")
      .replace(/^### (.+)$/gm, `### $1 ${i + 1}`)
      .replace(/^\*\*([a-z][\w.]*)\*\*/gm, `**copy${i + 1}.$1**`),
  );
  return [...lines.slice(0, end), ...copies, ...lines.slice(end)].join("\n");
}

describe("areas", () => {
  it("every typed method is in exactly one area, the first segment of its name, in both versions", () => {
    const { model, areas } = split(SPEC_TEXT);
    const placed = areas.flatMap((a) => [...a.legacy, ...a.v3].map((m) => `${m.version}:${m.name}:${a.key}`));
    const typed = [...typedMethods(model, "legacy"), ...typedMethods(model, "v3")];
    expect(placed.sort()).toEqual(typed.map((m) => `${m.version}:${m.name}:${m.name.split(".")[0]?.toLowerCase()}`).sort());
    const tasks = areas.find((a) => a.key === "tasks");
    expect(tasks?.legacy.map((m) => m.name)).toContain("tasks.task.get");
    expect(tasks?.v3.map((m) => m.name)).toEqual(expect.arrayContaining(["tasks.task.get", "tasks.task.add"]));
    expect(areas.map((a) => a.key)).toEqual([...areas.map((a) => a.key)].sort());
  });

  it("keys are file and subpath names; `common` is the shared entry's, so an area of that name gets another", () => {
    expect(areaKey("sonet_group.update")).toBe("sonet_group");
    expect(areaKey("Task.item.get")).toBe("task");
    expect(areaKey("a$b.c")).toBe("a-b");
    expect(areaKey("common.get")).toBe("common-methods");
    expect(areaKey("$.x")).toBe("other");
  });

  it("keys that differ only by - and _ get distinct identifiers in the main entry", async () => {
    const spec = endpointSpec("**x-y.thing.get** — Gets a thing. Scope `x`.\n\n- `id`* integer: the id.\n\n**x_y.thing.list** — Lists things. Scope `x`.\n\n- `id`* integer: the id.");
    const { areas } = split(spec);
    expect(areas.map((a) => [a.key, a.ident])).toEqual([
      ["x-y", "x_y"],
      ["x_y", "x_y_2"],
    ]);
    const { files } = await generate(spec, { ...GEN, format: false });
    const index = files.find((f) => f.path === "types/index.d.ts")?.contents ?? "";
    expect(index).toContain('import type { LegacyMethods as Legacy_x_y } from "./areas/x-y.js";');
    expect(index).toContain('import type { LegacyMethods as Legacy_x_y_2 } from "./areas/x_y.js";');
  });

  it("a resource one area alone reaches lives in that area; shared or unused ones are common", () => {
    const one = split(SPEC_TEXT);
    const home = (s: ReturnType<typeof split>, name: string) => s.areas.find((a) => a.resources.some((r) => r.name === name))?.key ?? (s.common.some((r) => r.name === name) ? "common" : null);
    expect(home(one, "Task")).toBe("tasks");
    // Reached through Task only, never named by a method: it goes where Task goes.
    expect(home(one, "TaskCreator")).toBe("tasks");
    expect(home(one, "ExternalLine")).toBe("telephony");
    // Copies of the Tasks area in other areas share Task, and what it names, through the common declarations.
    const copied = split(copiedTasks(2));
    expect(home(copied, "Task")).toBe("common");
    expect(home(copied, "TaskCreator")).toBe("common");
    expect(home(copied, "ExternalLine")).toBe("telephony");
    expect(copied.areas.map((a) => a.key)).toEqual(expect.arrayContaining(["copy1", "copy2", "tasks"]));
    // A resource no method reaches is common, and so is what it names: common never names an area's resource.
    const model = view(modelOf(SPEC_TEXT));
    const task = model.resources.find((r) => r.name === "Task");
    if (!task) throw new Error("no Task");
    model.resources.push({ ...task, name: "TaskHolder", type: { kind: "object", members: [{ name: "task", type: { kind: "ref", resource: "Task" }, required: true, nullable: false, description: prose(""), source: task.source }] } });
    const held = splitAreas(model, { legacy: typedMethods(model, "legacy"), v3: typedMethods(model, "v3") });
    expect(held.common.map((r) => r.name)).toEqual(expect.arrayContaining(["TaskHolder", "Task", "TaskCreator"]));
    expect(held.areas.find((a) => a.key === "tasks")?.resources.map((r) => r.name)).not.toContain("Task");
  });

  it("each area's file maps exactly its methods; the main entry joins every area's map; imports are what the code uses", async () => {
    const { areas } = split(SPEC_TEXT);
    const { files } = await generate(SPEC_TEXT, { ...GEN, format: false });
    const text = (path: string) => files.find((f) => f.path === path)?.contents ?? "";
    for (const a of areas) {
      const file = text(`types/areas/${a.key}.d.ts`);
      expect(mapKeys(file, "LegacyMethods"), a.key).toEqual(a.legacy.flatMap((m) => [m.name, ...m.aliases]));
      expect(mapKeys(file, "V3Methods"), a.key).toEqual(a.v3.flatMap((m) => [m.name, ...m.aliases]));
      // It names the other areas nowhere: no import but the common declarations.
      expect([...file.matchAll(/from "([^"]+)"/g)].map((m) => m[1])).toEqual(expect.arrayContaining(["../common.js"]));
      expect([...file.matchAll(/from "([^"]+)"/g)].every((m) => m[1] === "../common.js"), a.key).toBe(true);
      const client = text(`client/areas/${a.key}/index.d.ts`);
      expect(client).toContain(`from "collab-platform-api-types/${a.key}"`);
      expect(client).not.toMatch(/from "collab-platform-api-types";/);
    }
    const index = text("types/index.d.ts");
    for (const a of areas) {
      if (a.legacy.length) expect(index).toMatch(new RegExp(`\\bLegacy_${a.ident}\\b[\\s\\S]*export interface LegacyMethods[\\s\\S]*\\bLegacy_${a.ident}\\b`));
      if (a.v3.length) expect(index).toMatch(new RegExp(`export interface V3Methods[\\s\\S]*\\bV3_${a.ident}\\b`));
    }
    // The use scan skips comments and string literals: a name there is not an import.
    const names = new Set(["Task", "Time", "Envelope"]);
    expect(usedNames('/** a Task */\nexport type A = "Time" | Envelope<number>; // Task\n', names)).toEqual(["Envelope"]);
  });

  it("the tasks entry's declarations stay the same size when the API grows; the main entry's grow with it", async () => {
    const size = async (text: string) => {
      const { files } = await generate(text, { ...GEN, format: false });
      // Code only: the copies' text adds known gaps to the docs of the tasks methods themselves.
      const code = (t: string) => t.replace(/\/\*\*[\s\S]*?\*\//g, "").length;
      const bytes = (pred: (p: string) => boolean) => files.filter((f) => pred(f.path)).reduce((n, f) => n + code(f.contents), 0);
      const shared = (p: string) => p === "types/common.d.ts" || p === "client/shape.d.ts";
      return {
        area: bytes((p) => shared(p) || p === "types/areas/tasks.d.ts" || p.startsWith("client/areas/tasks/")),
        main: bytes((p) => shared(p) || p === "types/index.d.ts" || /^types\/areas\//.test(p) || /^client\/(index|calls)\.d\.ts$/.test(p)),
      };
    };
    const one = await size(SPEC_TEXT);
    const grown = await size(copiedTasks(10));
    // Ten copies of the area: the main entry takes them all in, the tasks entry only the shared resources once.
    expect(grown.main - one.main).toBeGreaterThan(20 * (grown.area - one.area));
    expect(grown.area / one.area).toBeLessThan(1.05);
  });

  it("a spec update that drops an area's last method removes its entry's files, and keeps a file of the user's there", () => {
    const dir = join(work, "update");
    mkdirSync(dir, { recursive: true });
    cpSync(join(ROOT, "codegen.config.yaml"), join(dir, "codegen.config.yaml"));
    // The spec and its dialect page; the reference copy (`platform-docs/`, 27 MB) is no input of these runs.
    cpSync(join(ROOT, "spec-source"), join(dir, "spec-source"), { recursive: true, filter: (src) => !src.includes("platform-docs") });
    const run = (args: string[]) => spawnSync(process.execPath, [join(ROOT, "dist/generator/cli/main.js"), ...args], { cwd: dir, encoding: "utf8" });
    expect(run(["generate"]).status).toBe(0);
    expect(existsSync(join(dir, "output/client/areas/sonet_group/index.js"))).toBe(true);
    writeFileSync(join(dir, "output/client/areas/sonet_group/notes.md"), "mine\n");
    const lines = SPEC_TEXT.split("\n");
    const start = lines.indexOf("### Social groups");
    const end = lines.indexOf("### Message providers");
    writeFileSync(join(dir, SPEC_PATH), [...lines.slice(0, start), ...lines.slice(end)].join("\n"));
    const r = run(["generate"]);
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(join(dir, "output/types/areas/sonet_group.d.ts"))).toBe(false);
    for (const f of ["index.js", "index.d.ts", "calls.d.ts", "methods.js", "methods.d.ts"]) expect(existsSync(join(dir, `output/client/areas/sonet_group/${f}`)), f).toBe(false);
    expect(readFileSync(join(dir, "output/client/areas/sonet_group/notes.md"), "utf8")).toBe("mine\n");
    const pkg = JSON.parse(readFileSync(join(dir, "output/client/package.json"), "utf8"));
    expect(pkg.exports["./sonet_group"]).toBeUndefined();
    expect(pkg.exports["./tasks"]).toEqual({ types: "./areas/tasks/index.d.ts", default: "./areas/tasks/index.js" });
    // Removing methods is a breaking version (0.2.0 while the major is 0, D22): a consumer learns it from the version.
    expect(pkg.version).toMatch(/^0\.2\.0$/);
    expect(run(["generate", "--check"]).status).toBe(0);
  });
});
