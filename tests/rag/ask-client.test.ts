import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  AskError,
  appendMessage,
  askAssistant,
  type ChatMessage,
  fetchSource,
  HELP_UNKNOWN,
  presentAnswer,
  SEARCH_UNAVAILABLE,
} from "#app/components/rag/ask-client.ts";

// SPEC §4 "Ask flow" and §8 in the browser's client, against msw: a 404 from search gives SPEC's
// fallback answer, errors carry the server's message, a source is fetched again once.
const BASE = "http://murmur.test";
const server = setupServer();
let sourceCalls = 0;
beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
afterAll(() => server.close());
beforeEach(() => {
  server.resetHandlers();
  sourceCalls = 0;
});
const at = (path: string) => `${BASE}${path}`;
const fetchAt: typeof fetch = (input, init) => fetch(at(String(input)), init);

describe("ask client", () => {
  it("shows SPEC's notice with usedFallback when search is not deployed (404 without a code)", async () => {
    server.use(http.post(at("/api/rag/ask"), () => new HttpResponse("Not Found", { status: 404 })));
    expect(await askAssistant({ query: "x" }, { fetch: fetchAt })).toMatchObject({
      answer: SEARCH_UNAVAILABLE,
      usedFallback: true,
      citations: [],
    });
  });

  it("throws the server's message for a coded error, and passes an answer through", async () => {
    server.use(
      http.post(at("/api/rag/ask"), async ({ request }) => {
        const body = (await request.json()) as { patientId?: string };
        if (body.patientId)
          return HttpResponse.json({ code: "patient_not_found", message: "Patient not found" }, { status: 404 });
        return HttpResponse.json({ answer: "A [1]", citations: [], usedFallback: false, support: null, scope: "records" });
      }),
    );
    await expect(askAssistant({ query: "x", patientId: "p" }, { fetch: fetchAt })).rejects.toEqual(
      new AskError("Patient not found", 404, "patient_not_found"),
    );
    expect((await askAssistant({ query: "x" }, { fetch: fetchAt })).answer).toBe("A [1]");
  });

  it("fetches a source again once after a failure, then gives up", async () => {
    server.use(
      http.get(at("/api/rag/source"), () => {
        sourceCalls += 1;
        return sourceCalls === 1 ? new HttpResponse(null, { status: 500 }) : HttpResponse.json({ id: "s", content: "text" });
      }),
    );
    const waits: number[] = [];
    const wait = async (ms: number) => {
      waits.push(ms);
    };
    expect(await fetchSource("s", { fetch: fetchAt, wait })).toEqual({ id: "s", content: "text" });
    expect(waits).toEqual([250]);
    server.use(http.get(at("/api/rag/source"), () => new HttpResponse(null, { status: 500 })));
    expect(await fetchSource("s", { fetch: fetchAt, wait })).toBeNull();
  });

  it("keeps 200 messages, shows the help disclaimer once and swaps 'Try:' for the support block", () => {
    let messages: ChatMessage[] = [];
    for (let i = 0; i < 205; i++)
      messages = appendMessage(messages, { id: String(i), role: "user", content: "q", createdAt: "" });
    expect(messages).toHaveLength(200);
    expect(messages[0]?.id).toBe("5");
    const options = { disclaimer: "From the help articles.", supportBlock: "Contact support: /support" };
    const first = presentAnswer("From the help articles. Record from Transcribing [1]", { ...options, disclaimerShown: false });
    expect(first).toEqual({ text: "From the help articles. Record from Transcribing [1]", disclaimerShown: true });
    const second = presentAnswer("From the help articles. Sign from Coding [1]", { ...options, disclaimerShown: true });
    expect(second.text).toBe("Sign from Coding [1]");
    const unknown = presentAnswer(`${HELP_UNKNOWN}\nTry: asking about recording.`, { ...options, disclaimerShown: true });
    expect(unknown.text).toBe(`${HELP_UNKNOWN}\nContact support: /support`);
  });
});
