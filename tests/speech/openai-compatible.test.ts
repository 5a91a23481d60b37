import { createServer } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isSpeechError, type SpeechError } from "#app/services/speech/errors.ts";
import { createOpenAiCompatibleEngine } from "#app/services/speech/openai-compatible.server.ts";
import { wavHeader } from "#app/services/speech/wav.server.ts";
import { json, startLoopbackServer } from "#tests/speech/loopback-server.ts";

// The OpenAI-compatible engine against a real HTTP server on the loopback interface, for what msw
// cannot stand in for: TCP connections accepted but never answered, bodies that stall or are cut
// after the headers, refused connections. The request/reply contract is in openai-compatible.msw.test.ts.
let server: Awaited<ReturnType<typeof startLoopbackServer>>;
beforeAll(async () => {
  server = await startLoopbackServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const audio = new Uint8Array(Buffer.concat([wavHeader(16_000, 16_000), Buffer.alloc(16_000)]));
const reply = { text: "Lower left molar.", segments: [{ start: 0, end: 1.2, text: "Lower left molar." }] };

function engine(overrides: Partial<Parameters<typeof createOpenAiCompatibleEngine>[0]> = {}) {
  return createOpenAiCompatibleEngine({
    baseUrl: server.url,
    model: "whisper-1",
    retryBaseMs: 10,
    timeoutMs: 5000,
    maxRetries: 3,
    ...overrides,
  });
}

async function failure(promise: Promise<unknown>): Promise<SpeechError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isSpeechError(error)) throw new Error(`expected a SpeechError, got ${String(error)}`);
  return error;
}

describe("OpenAI-compatible engine over a real socket", () => {
  it("times out a connection that is accepted but never answered, retries, then fails with engine_timeout", async () => {
    server.handle(() => {
      // Never answer.
    });
    const error = await failure(engine({ timeoutMs: 300, maxRetries: 1 }).transcribe(audio, { language: "en" }));
    expect(error.code).toBe("engine_timeout");
    expect(error.retryable).toBe(true);
    expect(server.requests).toHaveLength(2);
  });

  it("retries a reply whose body stalls after the headers as a timeout, not as a malformed reply", async () => {
    server.handle((_req, res) => {
      if (server.requests.length === 1) {
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"text": "Lower');
        return;
      }
      json(res, 200, reply);
    });
    const result = await engine({ timeoutMs: 300, maxRetries: 1 }).transcribe(audio, { language: "en" });
    expect(result.segments).toEqual(reply.segments);
    expect(server.requests).toHaveLength(2);
  });

  it("retries a reply cut off mid-body, and reports engine_unavailable when it keeps being cut", async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "500" });
      res.write('{"text": "Lower');
      setTimeout(() => res.destroy(), 20);
    });
    const error = await failure(engine({ maxRetries: 1 }).transcribe(audio, { language: "en" }));
    expect(error.code).toBe("engine_unavailable");
    expect(error.retryable).toBe(true);
    expect(server.requests).toHaveLength(2);
  });

  it("reports a refused connection as engine_unavailable after its retries", async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
      });
    });
    const error = await failure(
      engine({ baseUrl: `http://127.0.0.1:${port}`, maxRetries: 1 }).transcribe(audio, { language: "en" }),
    );
    expect(error.code).toBe("engine_unavailable");
    expect(error.retryable).toBe(true);
  });
});
