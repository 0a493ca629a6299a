import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { watchSpec } from "../../generator/cli/watch.js";

/** Every folder a test makes is under this one, removed at the end. */
const work = mkdtempSync(join(tmpdir(), "crc-watch-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * `generate --watch` arms its watch before the first run: a save made while that run is under way is seen and run
 * again. (Armed after it, the save was lost until the next one, and CI's --watch test waited past its bound.)
 */
describe("watchSpec", () => {
  it("a save during the first run is run again, once it is done", async () => {
    const dir = mkdtempSync(join(work, "watch-"));
    const spec = join(dir, "spec.md");
    writeFileSync(spec, "# one\n");
    const runs: number[] = [];
    let second: () => void = () => {};
    const sawSecond = new Promise<void>((resolve) => (second = resolve));
    const session = watchSpec(spec, "spec.md", async () => {
      runs.push(Date.now());
      if (runs.length === 1) {
        // The user saves while the first run is still under way.
        writeFileSync(spec, "# two\n");
        await new Promise((r) => setTimeout(r, 300));
      } else second();
      return 0;
    }, 20);
    const guard = new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 10_000));
    const outcome = await Promise.race([sawSecond.then(() => "second" as const), guard]);
    const said = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    process.emit("SIGTERM");
    expect(await session).toBe(0);
    // The stop names its signal also when the signal is emitted in-process (it said "undefined, stopped watching").
    expect(said.mock.calls.map((c) => String(c[0])).join("")).toContain("SIGTERM, stopped watching");
    said.mockRestore();
    expect(outcome).toBe("second");
    expect(runs.length).toBe(2);
  });

  it("a folder input (the platform's reference) runs again when a page deep in it changes, not for other files", async () => {
    const dir = mkdtempSync(join(work, "watch-dir-"));
    mkdirSync(join(dir, "api-reference/crm"), { recursive: true });
    writeFileSync(join(dir, "api-reference/crm/page.md"), "# one\n");
    let runs = 0;
    let second: () => void = () => {};
    const sawSecond = new Promise<void>((resolve) => (second = resolve));
    const session = watchSpec(dir, "docs", async () => {
      runs++;
      if (runs === 2) second();
      return 0;
    }, 20);
    await new Promise((r) => setTimeout(r, 300));
    // A file that is no page changes nothing; a page's new bytes run again.
    writeFileSync(join(dir, "api-reference/crm/notes.txt"), "x");
    await new Promise((r) => setTimeout(r, 300));
    expect(runs).toBe(1);
    writeFileSync(join(dir, "api-reference/crm/page.md"), "# two\n");
    const guard = new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 10_000));
    const outcome = await Promise.race([sawSecond.then(() => "second" as const), guard]);
    process.emit("SIGTERM");
    expect(await session).toBe(0);
    expect(outcome).toBe("second");
    expect(runs).toBe(2);
  });
});
