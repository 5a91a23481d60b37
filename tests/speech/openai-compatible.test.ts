import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isSpeechError, type SpeechError } from "#app/services/speech/errors.ts";
import { createOpenAiCompatibleEngine, retryAfterMs } from "#app/services/speech/openai-compatible.server.ts";
import { wavHeader } from "#app/services/speech/wav.server.ts";
import { json, startLoopbackServer } from "#tests/speech/loopback-server.ts";

let server: Awaited<ReturnType<typeof startLoopbackServer>>;
beforeAll(async () => {
  server = await startLoopbackServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

// Half a second of silence as the engines receive it: 16 kHz mono 16-bit WAV.
const audio = new Uint8Array(Buffer.concat([wavHeader(16_000, 16_000), Buffer.alloc(16_000)]));

const reply = {
  task: "transcribe",
  language: "english",
  duration: 4.2,
  text: " Bleeding on probing. Lower left molar.",
  segments: [
    { id: 0, seek: 0, start: 0, end: 1.8, text: " Bleeding on probing.", tokens: [1, 2], temperature: 0, avg_logprob: -0.2 },
    { id: 1, seek: 0, start: 2.1, end: 4.2, text: " Lower left molar.", tokens: [3], temperature: 0, avg_logprob: -0.3 },
  ],
};

function engine(overrides: Partial<Parameters<typeof createOpenAiCompatibleEngine>[0]> = {}) {
  return createOpenAiCompatibleEngine({
    baseUrl: server.url,
    apiKey: "sk-test-123",
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

describe("OpenAI-compatible engine contract", () => {
  it("posts the audio as multipart with model, language, verbose_json, segment timestamps and the bearer key", async () => {
    server.handle((_req, res) => json(res, 200, reply));
    const seen: string[] = [];
    const result = await engine().transcribe(audio, { language: "fr-CA", onSegment: (s) => seen.push(s.text) });

    expect(server.requests).toHaveLength(1);
    const request = server.requests[0];
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/v1/audio/transcriptions");
    expect(request?.headers.get("authorization")).toBe("Bearer sk-test-123");
    const form = request?.form;
    expect(form?.get("model")).toBe("whisper-1");
    expect(form?.get("language")).toBe("fr");
    expect(form?.get("response_format")).toBe("verbose_json");
    expect(form?.getAll("timestamp_granularities[]")).toEqual(["segment"]);
    const file = form?.get("file");
    expect(file).toBeInstanceOf(File);
    expect((file as File).name).toBe("audio.wav");
    expect(new Uint8Array(await (file as File).arrayBuffer())).toEqual(audio);

    expect(result).toEqual({
      text: "Bleeding on probing. Lower left molar.",
      segments: [
        { start: 0, end: 1.8, text: "Bleeding on probing." },
        { start: 2.1, end: 4.2, text: "Lower left molar." },
      ],
      engine: "openai-compatible",
      model: "whisper-1",
      language: "fr",
    });
    expect(seen).toEqual(["Bleeding on probing.", "Lower left molar."]);
  });

  it("accepts a base URL that already ends in /v1 and sends no authorization without a key", async () => {
    server.handle((_req, res) => json(res, 200, { text: "Hello there.", duration: 1.5 }));
    const result = await engine({ baseUrl: `${server.url}/v1/`, apiKey: undefined }).transcribe(audio, { language: "en" });
    expect(server.requests[0]?.path).toBe("/v1/audio/transcriptions");
    expect(server.requests[0]?.headers.has("authorization")).toBe(false);
    // A server that ignores timestamp_granularities: one segment over the whole audio.
    expect(result.segments).toEqual([{ start: 0, end: 1.5, text: "Hello there." }]);
  });

  it("waits for Retry-After after a 429, then succeeds", async () => {
    let calls = 0;
    server.handle((_req, res) => {
      calls += 1;
      if (calls === 1) json(res, 429, { error: { message: "Rate limit reached" } }, { "retry-after": "1" });
      else json(res, 200, reply);
    });
    const result = await engine().transcribe(audio, { language: "en" });
    expect(result.segments).toHaveLength(2);
    expect(server.requests).toHaveLength(2);
    const [first, second] = server.requests;
    // retryBaseMs is 10 ms: only the header can explain a wait of about a second.
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(900);
  });

  it("gives up on a server that keeps rate-limiting with engine_rate_limited", async () => {
    server.handle((_req, res) => json(res, 429, { error: { message: "slow down" } }, { "retry-after": "0" }));
    const error = await failure(engine({ maxRetries: 2 }).transcribe(audio, { language: "en" }));
    expect(error.code).toBe("engine_rate_limited");
    expect(error.retryable).toBe(true);
    expect(server.requests).toHaveLength(3);
  });

  it("retries 5xx with back-off and succeeds when the server recovers", async () => {
    let calls = 0;
    server.handle((_req, res) => {
      calls += 1;
      if (calls <= 2) json(res, calls === 1 ? 500 : 502, { error: "upstream" });
      else json(res, 200, reply);
    });
    const result = await engine().transcribe(audio, { language: "en" });
    expect(result.text).toContain("molar");
    expect(server.requests).toHaveLength(3);
  });

  it("fails with engine_failed after its retries on a server that keeps failing", async () => {
    server.handle((_req, res) => json(res, 503, { error: "overloaded" }));
    const error = await failure(engine({ maxRetries: 2 }).transcribe(audio, { language: "en" }));
    expect(error.code).toBe("engine_failed");
    expect(error.reason).toContain("HTTP 503");
    expect(error.retryable).toBe(true);
    expect(server.requests).toHaveLength(3);
  });

  it("times out a request that gets no answer, retries it, then fails with engine_timeout", async () => {
    server.handle(() => {
      // Never answer.
    });
    const error = await failure(engine({ timeoutMs: 300, maxRetries: 1 }).transcribe(audio, { language: "en" }));
    expect(error.code).toBe("engine_timeout");
    expect(server.requests).toHaveLength(2);
  });

  it.each([
    [
      "not JSON",
      (res: Parameters<Parameters<typeof server.handle>[0]>[1]) =>
        res.writeHead(200, { "content-type": "application/json" }).end("{ not json"),
    ],
    [
      "JSON of the wrong shape",
      (res: Parameters<Parameters<typeof server.handle>[0]>[1]) =>
        json(res, 200, { segments: [{ start: "0", end: 1, text: "x" }] }),
    ],
    [
      "an HTML error page with status 200",
      (res: Parameters<Parameters<typeof server.handle>[0]>[1]) =>
        res.writeHead(200, { "content-type": "text/html" }).end("<html>proxy</html>"),
    ],
  ])("turns a reply that is %s into engine_bad_response without retrying", async (_label, send) => {
    server.handle((_req, res) => send(res));
    const error = await failure(engine().transcribe(audio, { language: "en" }));
    expect(error.code).toBe("engine_bad_response");
    expect(error.retryable).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it("does not retry a request the server rejects (4xx)", async () => {
    server.handle((_req, res) => json(res, 401, { error: { message: "Incorrect API key provided" } }));
    const error = await failure(engine().transcribe(audio, { language: "en" }));
    expect(error.code).toBe("engine_rejected");
    expect(error.retryable).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it("stops waiting when the caller cancels", async () => {
    server.handle(() => {
      // Never answer.
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await failure(engine({ timeoutMs: 10_000 }).transcribe(audio, { language: "en", signal: controller.signal }));
    expect(error.code).toBe("cancelled");
    expect(server.requests).toHaveLength(1);
  });

  it("refuses a language the deployment did not configure, before any request", async () => {
    const error = await failure(engine({ languages: ["en"] }).transcribe(audio, { language: "es" }));
    expect(error.code).toBe("no_engine_for_language");
    expect(server.requests).toHaveLength(0);
  });
});

describe("retryAfterMs", () => {
  it("reads seconds and HTTP dates", () => {
    expect(retryAfterMs("2")).toBe(2000);
    expect(retryAfterMs("Wed, 21 Oct 2015 07:28:05 GMT", Date.parse("Wed, 21 Oct 2015 07:28:00 GMT"))).toBe(5000);
    expect(retryAfterMs("soon")).toBeNull();
    expect(retryAfterMs(null)).toBeNull();
  });
});
