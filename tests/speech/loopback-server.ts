import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Headers;
  form: FormData | null;
  at: number;
}

export type Handler = (request: RecordedRequest, response: ServerResponse) => void;

/**
 * A stand-in for a hosted OpenAI-compatible speech API on the loopback interface, for the
 * socket-level cases msw cannot produce (stalled or cut bodies, connections never answered); the
 * contract itself is tested with msw (tests/mocks/openai-asr.ts).
 * Ports 4600–4699 are this suite's range.
 */
export async function startLoopbackServer(): Promise<{
  url: string;
  requests: RecordedRequest[];
  handle: (handler: Handler) => void;
  close: () => Promise<void>;
}> {
  const requests: RecordedRequest[] = [];
  let handler: Handler = (_req, res) => res.writeHead(500).end();
  const open = new Set<ServerResponse>();
  const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    open.add(res);
    res.on("close", () => open.delete(res));
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [key, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(key, value);
    let form: FormData | null = null;
    if (headers.get("content-type")?.startsWith("multipart/form-data")) {
      form = await new Request("http://loopback", { method: "POST", headers, body: Buffer.concat(chunks) }).formData();
    }
    const recorded: RecordedRequest = { method: req.method ?? "", path: req.url ?? "", headers, form, at: Date.now() };
    requests.push(recorded);
    handler(recorded, res);
  });
  const port = await listenInRange(server, 4600, 4699);
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle: (next) => {
      handler = next;
    },
    close: () =>
      new Promise((resolve) => {
        for (const res of open) res.destroy();
        server.close(() => resolve());
      }),
  };
}

async function listenInRange(server: Server, from: number, to: number): Promise<number> {
  const offset = Math.floor(Math.random() * (to - from + 1));
  for (let i = 0; i <= to - from; i++) {
    const port = from + ((offset + i) % (to - from + 1));
    const ok = await new Promise<boolean>((resolve) => {
      const onError = () => resolve(false);
      server.once("error", onError);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", onError);
        resolve(true);
      });
    });
    if (ok) return port;
  }
  throw new Error(`no free port in ${from}-${to}`);
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}
