import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { type IncomingMessage, type ServerResponse, createServer as createHttpServer } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { LineCounter, isMap, isSeq, parseDocument } from "yaml";
import type { GeneratedFile } from "../emit/files.js";
import { seedSchema } from "../emit/server/mock.js";
import { GENERATOR_NAME } from "../options.js";
import { oneLine } from "../util/redact.js";

/**
 * `collab-rest-codegen mock`: the generated server package, written to a temporary folder and imported from there
 * (the same code a user's server runs), serving `createMock()` on 127.0.0.1. TLS with a certificate made at start
 * unless one is given; `--http` for plain HTTP. stdout: `listening on URL`, then one line per request; notices on
 * stderr.
 */

export interface MockFlags {
  host: string;
  port: number;
  records?: number;
  seed?: string;
  http?: boolean;
  v3Batch?: boolean;
  cert?: string;
  key?: string;
  /** Where the certificate made at start is written (default: the user's cache folder), for NODE_EXTRA_CA_CERTS. */
  certOut?: string;
  /** Hosts beyond loopback that `POST /_mock/events` may deliver events to (`--event-host`, repeated). */
  eventHosts?: string[];
  /** How long one delivery of an event waits for the handler, in milliseconds (`--event-timeout`). */
  eventTimeoutMs?: number;
}

/** A problem of the mock's input: a seed file's at its position, a certificate that cannot be read, a port in use. */
export class MockInputError extends Error {}

/**
 * Reads a seed file (JSON is YAML) and checks it against `seedSchema()`: a problem is a `MockInputError` with the file,
 * line and column of the value at fault.
 */
export async function readSeed(path: string, shown: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new MockInputError(`${shown}: cannot read the seed file: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const at = (offset: number) => {
    const p = lines.linePos(offset);
    return `${shown}:${p.line}:${p.col}`;
  };
  const first = doc.errors[0];
  if (first) throw new MockInputError(`${at(first.pos[0])}: error: the seed file does not parse: ${first.message.split("\n")[0]}`);
  const value = doc.toJS() as unknown;
  const { Ajv } = await import("ajv");
  const validate = new Ajv({ allErrors: true, strict: false }).compile(seedSchema());
  if (!validate(value)) {
    const e = validate.errors?.[0];
    const path = (e?.instancePath ?? "").split("/").slice(1).map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
    // The node of the failing value, or of the nearest enclosing one that exists.
    let node: unknown = doc.contents;
    for (const key of path) {
      const next = isMap(node) ? node.get(key, true) : isSeq(node) ? node.get(Number(key), true) : undefined;
      if (next === undefined) break;
      node = next;
    }
    const offset = (node as { range?: [number, number] } | null)?.range?.[0] ?? 0;
    const where = path.length ? ` at ${path.join(".")}` : "";
    const extra = e?.keyword === "additionalProperties" ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})` : "";
    throw new MockInputError(`${at(offset)}: error: the seed${where} ${e?.message ?? "is not valid"}${extra}; see seed.schema.json of the server package`);
  }
  return value as Record<string, unknown>;
}

/**
 * A request's path as the log shows it: read as the router reads it (empty segments dropped, escapes decoded, an
 * absolute-form target taken apart), with the webhook code replaced by `***`, and in the query every value whose
 * name speaks of a credential (`auth`, `*token*`, `*code*`, `*secret*`). A target that is no API address shows as
 * `(not an API address)`: whatever it holds stays out of the log.
 */
export function redactPath(target: string, route: (pathname: string) => { version: string; method: string; webhook: { userId: string } | null } | null): string {
  // The router reads the raw path up to `?` (the node adapter passes it so): read it the same way.
  const q = target.indexOf("?");
  // The mock's own control endpoint (deliver an event): its path, never its query.
  if ((q < 0 ? target : target.slice(0, q)) === "/_mock/events") return "/_mock/events";
  const r = target.startsWith("/") ? route(q < 0 ? target : target.slice(0, q)) : null;
  if (!r) return "(not an API address)";
  const enc = (v: string) => encodeURIComponent(v).replace(/%2E/gi, ".");
  const path = `/rest/${r.version === "v3" ? "api/" : ""}${r.webhook ? `${enc(r.webhook.userId)}/***/` : ""}${enc(r.method)}`;
  if (q < 0) return path;
  const query = [...new URLSearchParams(target.slice(q + 1))].map(([k, v]) => `${encodeURIComponent(k)}=${/auth|token|code|secret|password|handler/i.test(k) ? "***" : encodeURIComponent(v)}`);
  return query.length ? `${path}?${query.join("&")}` : path;
}

interface MockModule {
  createMock(options: Record<string, unknown>): (request: Request) => Promise<Response>;
  route(pathname: string): { version: string; method: string; webhook: { userId: string } | null } | null;
  toNodeListener(handle: (request: Request) => Promise<Response>): (req: IncomingMessage, res: ServerResponse) => void;
}

/**
 * Serves the mock until SIGINT or SIGTERM; resolves with the exit code once the server has closed. `files` are the
 * generated files (the server package is written out of them).
 */
export async function serveMock(files: readonly GeneratedFile[], flags: MockFlags, seedShown: string | null): Promise<number> {
  const seed = flags.seed && seedShown ? await readSeed(flags.seed, seedShown) : undefined;
  const dir = mkdtempSync(join(tmpdir(), "crc-mock-"));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  // However the process ends, the temporary package goes; a reader that closed the pipe (`mock | head -1`) ends
  // the log, not the mock.
  process.once("exit", cleanup);
  process.stdout.on("error", () => undefined);
  process.stderr.on("error", () => undefined);
  const readPem = (path: string, what: string) => {
    try {
      return readFileSync(path, "utf8");
    } catch (err) {
      throw new MockInputError(`cannot read the ${what} ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
  };
  try {
    for (const f of files) {
      if (!f.path.startsWith("server/") || f.userOwned) continue;
      const target = join(dir, ...f.path.split("/"));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, f.contents);
    }
    const server = (await import(pathToFileURL(join(dir, "server", "index.js")).href)) as MockModule;
    for (const name of ["createMock", "route", "toNodeListener"] as const) {
      if (typeof server[name] !== "function") {
        throw new MockInputError(`the server package's index.js has no ${name}: a replaced server/index.js.hbs must export it (see the built-in template)`);
      }
    }
    const handle = server.createMock({
      ...(flags.records !== undefined ? { records: flags.records } : {}),
      ...(seed ? { seed } : {}),
      ...(flags.http ? { allowHttp: true } : {}),
      ...(flags.v3Batch ? { v3Batch: true } : {}),
      ...(flags.eventHosts?.length || flags.eventTimeoutMs !== undefined ? { events: { ...(flags.eventHosts?.length ? { hosts: flags.eventHosts } : {}), ...(flags.eventTimeoutMs !== undefined ? { timeoutMs: flags.eventTimeoutMs } : {}) } } : {}),
      // One line per entry: a control character a caller put in a name (an event's, a method's) is escaped, so that
      // no request writes a line of its own into the log.
      log: (e: { level: string; message: string; method?: string }) => process.stderr.write(`${oneLine(`${e.level}: ${e.method ? `${e.method}: ` : ""}${e.message}`)}\n`),
    });
    const listener = server.toNodeListener(handle);
    const logged = (req: IncomingMessage, res: ServerResponse) => {
      const started = performance.now();
      res.on("finish", () => process.stdout.write(`${req.method} ${redactPath(req.url ?? "", server.route)} ${res.statusCode} ${(performance.now() - started).toFixed(1)} ms\n`));
      listener(req, res);
    };
    let httpServer: ReturnType<typeof createHttpServer> | ReturnType<typeof createHttpsServer>;
    if (flags.http) {
      process.stderr.write("notice: serving plain HTTP for local development; the platform itself refuses HTTP (INVALID_REQUEST, \"Https required\")\n");
      httpServer = createHttpServer(logged);
    } else {
      const { key, cert } = flags.cert && flags.key ? { key: readPem(flags.key, "key"), cert: readPem(flags.cert, "certificate") } : await selfSigned(flags.host);
      if (!flags.cert) {
        // The certificate (never the key) goes to a file, so that a client that refuses unknown certificates, as the
        // platform's official SDK does, can trust it: NODE_EXTRA_CA_CERTS is read when node starts (issue 25).
        const file = flags.certOut ?? defaultCertPath(flags.host);
        try {
          mkdirSync(dirname(file), { recursive: true });
          writeFileSync(file, cert, { mode: 0o644 });
        } catch (err) {
          throw new MockInputError(`cannot write the certificate to ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
        }
        process.stderr.write(`notice: a self-signed certificate made at start, written to ${file}; trust it with NODE_EXTRA_CA_CERTS=${file}, or give --cert and --key to use your own\n`);
      }
      try {
        httpServer = createHttpsServer({ key, cert }, logged);
      } catch (err) {
        throw new MockInputError(`the certificate and key do not make a TLS server: ${(err as Error).message}`);
      }
    }
    await new Promise<void>((ok, fail) => {
      httpServer.once("error", (err: NodeJS.ErrnoException) => fail(new MockInputError(`cannot listen on ${flags.host}:${flags.port}: ${err.code ?? err.message}`)));
      httpServer.listen(flags.port, flags.host, () => ok());
    });
    const { port } = httpServer.address() as AddressInfo;
    const host = flags.host.includes(":") ? `[${flags.host}]` : flags.host;
    process.stdout.write(`listening on ${flags.http ? "http" : "https"}://${host}:${port}\n`);
    // The mock takes any credentials as an administrator's: said once when it listens beyond this machine.
    if (beyondLoopback(flags.host)) {
      process.stderr.write(`${GENERATOR_NAME}: warning: the mock listens on ${host}, beyond loopback: anyone who reaches it is taken as an administrator with any credentials\n`);
    }
    return await new Promise<number>((done) => {
      const stop = (signal: NodeJS.Signals) => {
        process.off("SIGINT", stop);
        process.off("SIGTERM", stop);
        process.off("SIGHUP", stop);
        clearInterval(orphaned);
        // SIGUSR2 stands for "npm, which started it, is gone" (no signal came).
        process.stderr.write(`notice: ${signal === "SIGUSR2" ? "the parent process exited" : signal}, stopped\n`);
        httpServer.close(() => {
          cleanup();
          done(0);
        });
        httpServer.closeAllConnections();
      };
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
      process.on("SIGHUP", stop);
      // `npx`/`npm run` do not pass a SIGTERM sent to npm on to this process: npm exits and leaves it to init. A
      // mock npm started stops when npm is gone, rather than holding its port unseen (as `generate --watch` does).
      // One started otherwise (`mock &` in a CI step, `nohup`) may outlive its shell on purpose.
      const parent = process.ppid;
      const byNpm = Boolean(process.env.npm_command || process.env.npm_lifecycle_event);
      const orphaned = setInterval(() => {
        if (byNpm && process.ppid !== parent) stop("SIGUSR2");
      }, 500);
      orphaned.unref();
    });
  } catch (err) {
    cleanup();
    throw err;
  }
}

/** Whether a listening address reaches beyond this machine: anything but 127.0.0.0/8 (IPv4-mapped too), ::1 and localhost. */
export function beyondLoopback(host: string): boolean {
  return !/^\[?(?:(?:::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|localhost)\]?$/i.test(host);
}

/** The certificate's default file: the user's cache folder (`$XDG_CACHE_HOME`, else `~/.cache`), one per host. */
function defaultCertPath(host: string): string {
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(cache, "collab-rest-codegen", `mock-${host.replace(/[^\w.-]+/g, "_")}.pem`);
}

/** A certificate for the host, valid for a day (`selfsigned`, the usual package for this). */
async function selfSigned(host: string): Promise<{ key: string; cert: string }> {
  const { default: selfsigned } = await import("selfsigned");
  const ip = /^[\d.]+$|:/.test(host);
  const pems = await selfsigned.generate([{ name: "commonName", value: host }], {
    notAfterDate: new Date(Date.now() + 86_400_000),
    keyType: "ec",
    extensions: [{ name: "subjectAltName", altNames: [ip ? { type: 7, ip: host } : { type: 2, value: host }] }],
  });
  return { key: pems.private, cert: pems.cert };
}
