import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { delay, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isSpeechError, type SpeechError } from "#app/services/speech/errors.ts";
import { createOpenAiCompatibleEngine, retryAfterMs } from "#app/services/speech/openai-compatible.server.ts";
import { wavHeader } from "#app/services/speech/wav.server.ts";
import { ASR_BASE_URL, createOpenAiAsrMock, verboseReply } from "#tests/mocks/openai-asr.ts";

// Issue 5 "Proof": msw contract tests for the OpenAI-compatible engine — request shape, segments,
// 429 and 5xx retries, timeouts, malformed replies. Every failure is a SpeechError whose stable
// code and `retryable` flag decide the visit's state (retried job, or failed with the reason).
// What only a real socket shows (a body cut or stalled mid-way, a refused connection) stays in
// openai-compatible.test.ts on the loopback server.
const asr = createOpenAiAsrMock();
const server = setupServer(asr.handler);

beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
afterAll(() => server.close());
beforeEach(() => asr.reset());

// Half a second of silence as the engines receive it: 16 kHz mono 16-bit WAV.
const audio = new Uint8Array(Buffer.concat([wavHeader(16_000, 16_000), Buffer.alloc(16_000)]));

function engine(overrides: Partial<Parameters<typeof createOpenAiCompatibleEngine>[0]> = {}) {
  return createOpenAiCompatibleEngine({
    baseUrl: ASR_BASE_URL,
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

const gaps = () => asr.requests.slice(1).map((r, i) => r.at - (asr.requests[i]?.at ?? 0));

describe("OpenAI-compatible engine: the request", () => {
  it("posts multipart with file, model, language, verbose_json, segment timestamps and the bearer key", async () => {
    const seen: string[] = [];
    const result = await engine().transcribe(audio, { language: "fr-CA", onSegment: (s) => seen.push(s.text) });

    expect(asr.requests).toHaveLength(1);
    const request = asr.requests[0];
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/v1/audio/transcriptions");
    expect(request?.headers.get("authorization")).toBe("Bearer sk-test-123");
    expect(request?.headers.get("accept")).toBe("application/json");
    expect(request?.headers.get("content-type")).toMatch(/^multipart\/form-data; boundary=/);
    const form = request?.form;
    expect([...(form?.keys() ?? [])].sort()).toEqual(
      ["file", "language", "model", "response_format", "timestamp_granularities[]"].sort(),
    );
    expect(form?.get("model")).toBe("whisper-1");
    expect(form?.get("language")).toBe("fr");
    expect(form?.get("response_format")).toBe("verbose_json");
    expect(form?.getAll("timestamp_granularities[]")).toEqual(["segment"]);
    const file = form?.get("file") as File;
    expect(file).toBeInstanceOf(File);
    expect(file.name).toBe("audio.wav");
    expect(file.type).toBe("audio/wav");
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(audio);

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

  it("streams audio given as a file path, byte for byte", async () => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "murmur-asr-"));
    const file = path.join(dir, "clip.wav");
    await fsp.writeFile(file, audio);
    try {
      await engine().transcribe(file, { language: "en" });
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
    const sent = asr.requests[0]?.form?.get("file") as File;
    expect(new Uint8Array(await sent.arrayBuffer())).toEqual(audio);
  });

  it("accepts a base URL ending in /v1, and sends no authorization without a key", async () => {
    asr.answer(() => HttpResponse.json({ text: "Hello there.", duration: 1.5 }));
    const result = await engine({ baseUrl: `${ASR_BASE_URL}/v1/`, apiKey: undefined }).transcribe(audio, { language: "en" });
    expect(asr.requests[0]?.path).toBe("/v1/audio/transcriptions");
    expect(asr.requests[0]?.headers.has("authorization")).toBe(false);
    // A server that ignores timestamp_granularities: one segment over the whole audio.
    expect(result.segments).toEqual([{ start: 0, end: 1.5, text: "Hello there." }]);
  });

  it("keeps segment timestamps, clamps an end before its start, and drops empty segments", async () => {
    asr.answer(() =>
      HttpResponse.json({
        text: "One. Two.",
        segments: [
          { start: 0.1234, end: 1.5678, text: " One." },
          { start: 2, end: 1.9, text: "Two." },
          { start: 3, end: 3.5, text: "   " },
        ],
      }),
    );
    const result = await engine().transcribe(audio, { language: "en" });
    expect(result.segments).toEqual([
      { start: expect.closeTo(0.123, 2), end: expect.closeTo(1.568, 2), text: "One." },
      { start: 2, end: 2, text: "Two." },
    ]);
  });

  it("refuses a language the deployment did not configure, before any request", async () => {
    const error = await failure(engine({ languages: ["en"] }).transcribe(audio, { language: "es" }));
    expect(error.code).toBe("no_engine_for_language");
    expect(error.retryable).toBe(false);
    expect(asr.requests).toHaveLength(0);
  });
});

describe("OpenAI-compatible engine: retries", () => {
  it("waits for Retry-After (seconds) after a 429, then succeeds", async () => {
    asr.answer((call) =>
      call === 1
        ? HttpResponse.json({ error: { message: "Rate limit reached" } }, { status: 429, headers: { "retry-after": "1" } })
        : HttpResponse.json(verboseReply),
    );
    const result = await engine().transcribe(audio, { language: "en" });
    expect(result.segments).toHaveLength(2);
    expect(asr.requests).toHaveLength(2);
    // retryBaseMs is 10 ms: only the header explains a wait of about a second.
    expect(gaps()[0]).toBeGreaterThanOrEqual(900);
  });

  it("prefers Retry-After to its own back-off (an HTTP date in the past means now)", async () => {
    asr.answer((call) =>
      call === 1
        ? new HttpResponse("slow down", { status: 429, headers: { "retry-after": new Date(Date.now() - 5000).toUTCString() } })
        : HttpResponse.json(verboseReply),
    );
    // A back-off of a minute would time the test out: the header must win.
    await engine({ retryBaseMs: 60_000 }).transcribe(audio, { language: "en" });
    expect(asr.requests).toHaveLength(2);
  });

  it("gives up on a server that keeps rate-limiting with engine_rate_limited (retryable)", async () => {
    asr.answer(() => HttpResponse.json({ error: { message: "slow down" } }, { status: 429, headers: { "retry-after": "0" } }));
    const error = await failure(engine({ maxRetries: 2 }).transcribe(audio, { language: "en" }));
    expect(error.code).toBe("engine_rate_limited");
    expect(error.reason).toContain("HTTP 429");
    expect(error.retryable).toBe(true);
    expect(asr.requests).toHaveLength(3);
  });

  it("retries 5xx with growing back-off and succeeds when the server recovers", async () => {
    asr.answer((call) =>
      call <= 2 ? HttpResponse.json({ error: "upstream" }, { status: call === 1 ? 500 : 502 }) : HttpResponse.json(verboseReply),
    );
    const result = await engine({ retryBaseMs: 40 }).transcribe(audio, { language: "en" });
    expect(result.text).toContain("molar");
    expect(asr.requests).toHaveLength(3);
    // Back-off is 40 ms then 80 ms, each ±25 %.
    const [first, second] = gaps();
    expect(first).toBeGreaterThanOrEqual(29);
    expect(second).toBeGreaterThanOrEqual(59);
  });

  it("fails with engine_failed, carrying the status and body, after its retries on a server that keeps failing", async () => {
    asr.answer(() => HttpResponse.json({ error: "overloaded" }, { status: 503 }));
    const error = await failure(engine({ maxRetries: 2 }).transcribe(audio, { language: "en" }));
    expect(error.code).toBe("engine_failed");
    expect(error.reason).toBe('HTTP 503: {"error":"overloaded"}');
    expect(error.retryable).toBe(true);
    expect(asr.requests).toHaveLength(3);
  });

  it("retries a dropped connection and fails with engine_unavailable when it keeps dropping", async () => {
    asr.answer((call) => (call === 1 ? HttpResponse.error() : HttpResponse.json(verboseReply)));
    expect((await engine().transcribe(audio, { language: "en" })).segments).toHaveLength(2);
    asr.reset();
    asr.answer(() => HttpResponse.error());
    const error = await failure(engine({ maxRetries: 1 }).transcribe(audio, { language: "en" }));
    expect(error.code).toBe("engine_unavailable");
    expect(error.retryable).toBe(true);
    expect(asr.requests).toHaveLength(2);
  });

  it("does not retry a request the server rejects (4xx)", async () => {
    for (const status of [400, 401, 413]) {
      asr.reset();
      asr.answer(() => HttpResponse.json({ error: { message: "Incorrect API key provided" } }, { status }));
      const error = await failure(engine().transcribe(audio, { language: "en" }));
      expect(error.code).toBe("engine_rejected");
      expect(error.reason).toContain(`HTTP ${status}`);
      expect(error.retryable).toBe(false);
      expect(asr.requests).toHaveLength(1);
    }
  });
});

describe("OpenAI-compatible engine: timeouts and cancellation", () => {
  it("times out a request that gets no answer, retries it, then fails with engine_timeout", async () => {
    asr.answer(async () => {
      await delay("infinite");
      return HttpResponse.json(verboseReply);
    });
    const error = await failure(engine({ timeoutMs: 200, maxRetries: 1 }).transcribe(audio, { language: "en" }));
    expect(error.code).toBe("engine_timeout");
    expect(error.retryable).toBe(true);
    expect(asr.requests).toHaveLength(2);
  });

  it("stops waiting when the caller cancels, without retrying", async () => {
    asr.answer(async () => {
      await delay("infinite");
      return HttpResponse.json(verboseReply);
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await failure(engine({ timeoutMs: 10_000 }).transcribe(audio, { language: "en", signal: controller.signal }));
    expect(error.code).toBe("cancelled");
    expect(asr.requests).toHaveLength(1);
  });
});

describe("OpenAI-compatible engine: malformed replies", () => {
  it.each([
    ["not JSON", () => new HttpResponse("{ not json", { headers: { "content-type": "application/json" } })],
    ["an empty body", () => new HttpResponse(null, { status: 200 })],
    ["JSON of the wrong shape", () => HttpResponse.json({ segments: [{ start: "0", end: 1, text: "x" }] })],
    ["JSON without text", () => HttpResponse.json({ segments: [] })],
    ["a segment with a negative start", () => HttpResponse.json({ text: "x", segments: [{ start: -1, end: 1, text: "x" }] })],
    ["an HTML page with status 200", () => HttpResponse.html("<html>proxy login</html>")],
  ])("turns a reply that is %s into engine_bad_response without retrying", async (_label, reply) => {
    asr.answer(reply);
    const error = await failure(engine().transcribe(audio, { language: "en" }));
    expect(error.code).toBe("engine_bad_response");
    expect(error.retryable).toBe(false);
    expect(error.status).toBe(502);
    expect(asr.requests).toHaveLength(1);
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
