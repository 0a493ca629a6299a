import { createServer, type Server } from "node:https";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import selfsigned from "selfsigned";
import { Agent, fetch as undiciFetch } from "undici";

/** A self-signed certificate for 127.0.0.1, made at test time. */
export async function certificate(): Promise<{ key: string; cert: string }> {
  const pems = await selfsigned.generate([{ name: "commonName", value: "127.0.0.1" }], {
    notAfterDate: new Date(Date.now() + 86_400_000),
    keyType: "ec",
    extensions: [{ name: "subjectAltName", altNames: [{ type: 7, ip: "127.0.0.1" }] }],
  });
  return { key: pems.private, cert: pems.cert };
}

/** A fetch that trusts a certificate (of a server on 127.0.0.1 made at test time); `connections` per origin. */
export function trustingFetch(cert: string, connections?: number): typeof fetch {
  const agent = new Agent({ connect: { ca: cert }, ...(connections ? { connections } : {}) });
  return ((input: string, init?: RequestInit) => undiciFetch(input, { ...(init as object), dispatcher: agent })) as unknown as typeof fetch;
}

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
  json: unknown;
}

export type Handler = (req: Recorded, res: ServerResponse) => void | Promise<void>;

/** An HTTPS server on 127.0.0.1 whose answers a test sets; it records every request. */
export class TestServer {
  readonly requests: Recorded[] = [];
  handler: Handler = (_req, res) => {
    res.writeHead(500).end();
  };
  private constructor(
    private readonly server: Server,
    readonly cert: string,
  ) {}

  static async start(): Promise<TestServer> {
    const { key, cert } = await certificate();
    let self: TestServer | undefined;
    const server = createServer({ key, cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", async () => {
        const body = Buffer.concat(chunks).toString("utf8");
        let json: unknown;
        try {
          json = body ? JSON.parse(body) : undefined;
        } catch {
          json = undefined;
        }
        const rec: Recorded = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body, json };
        self?.requests.push(rec);
        try {
          await self?.handler(rec, res);
        } catch {
          if (!res.headersSent) res.writeHead(500).end();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    self = new TestServer(server, cert);
    return self;
  }

  get baseUrl(): string {
    return `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** A fetch that trusts this server's certificate. */
  fetch(): typeof fetch {
    return trustingFetch(this.cert);
  }

  reset(): void {
    this.requests.length = 0;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text), ...headers }).end(text);
}

export const TIME = {
  start: 1,
  finish: 2,
  duration: 1,
  processing: 0.5,
  date_start: "2026-01-01T00:00:00+00:00",
  date_finish: "2026-01-01T00:00:01+00:00",
  operating: 0,
  operating_reset_at: 1,
};
