import { delay } from "msw";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { draftFailures, isNoteEngineError, type NoteEngineError } from "#app/services/notes/engines/errors.ts";
import {
  createOpenAiCompatibleNoteEngine,
  type OpenAiCompatibleNoteEngineConfig,
} from "#app/services/notes/engines/openai-compatible/engine.server.ts";
import type { NoteEngineInput, NoteTemplate, TemplateSection, TranscriptPiece } from "#app/services/notes/model.ts";
import { chatCompletion, chatError, createOpenAiChatMock, sectionReply } from "#tests/mocks/openai-chat.ts";

const mock = createOpenAiChatMock();
beforeAll(() => mock.listen());
afterAll(() => mock.close());
beforeEach(() => mock.reset());

const BASE_URL = "https://llm.example.test/v1";

const transcript: TranscriptPiece[] = [
  { start: 0, end: 4.2, speaker: "doctor", text: "What brings you in today?" },
  { start: 4.5, end: 9.8, speaker: "patient", text: "I've had a cough for two weeks,\nworse at night." },
  { start: 10.1, end: 14, speaker: "patient", text: "No fever. I take lisinopril 10 mg daily." },
  { start: 75.5, end: 81, speaker: "doctor", text: "Lungs are clear. Let's start a trial of benzonatate 100 mg." },
];

function section(overrides: Partial<TemplateSection> & Pick<TemplateSection, "key" | "title" | "kind">): TemplateSection {
  return { header: "with_content", style: "prose", verbosity: "standard", persistent: false, ...overrides };
}

const template: NoteTemplate = {
  id: "builtin:test",
  name: "Test note",
  language: "en",
  sections: [
    section({
      key: "hpi",
      title: "History",
      kind: "hpi",
      instructions: "Onset, duration and pertinent negatives.",
      placeholders: ["duration"],
    }),
    section({ key: "medications", title: "Medications", kind: "medications", style: "bullets", persistent: true }),
    section({
      key: "plan",
      title: "Plan",
      kind: "plan",
      style: "bullets",
      verbosity: "concise",
      fixedText: "Discussed with the patient.",
    }),
    section({ key: "consent", title: "Consent", kind: "other", fixedText: "Verbal consent to record was obtained." }),
  ],
};

function engine(overrides: Partial<OpenAiCompatibleNoteEngineConfig> = {}) {
  return createOpenAiCompatibleNoteEngine({
    baseUrl: BASE_URL,
    apiKey: "sk-test-notes",
    model: "gpt-4o-mini",
    timeoutMs: 5000,
    maxRetries: 2,
    retryBaseMs: 5,
    concurrency: 1,
    ...overrides,
  });
}

function input(overrides: Partial<NoteEngineInput> = {}): NoteEngineInput {
  return { template, transcript, language: "en", ...overrides };
}

async function failure(promise: Promise<unknown>): Promise<NoteEngineError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isNoteEngineError(error)) throw new Error(`expected a NoteEngineError, got ${String(error)}`);
  return error;
}

/** A responder that answers each section title with its own reply, and an empty section otherwise. */
function bySection(replies: Record<string, () => Response | Promise<Response>>) {
  return ({ section: title }: { section: string }) => replies[title]?.() ?? sectionReply([]);
}

describe("OpenAI-compatible note engine: request contract", () => {
  it("posts one chat completion per model section: bearer key, model, temperature 0, strict json_schema, transcript lines and section guidance", async () => {
    const progress: number[] = [];
    await engine().generate(
      input({
        context: { visitTitle: "Cough", patient: { displayName: "Jane Roe", sex: "female", ageYears: 54 } },
        onProgress: (d) => progress.push(d),
      }),
    );

    // The consent section is fixed text only: nothing to ask a model.
    expect(mock.calls.map((c) => c.section)).toEqual(["History", "Medications", "Plan"]);
    expect(progress).toEqual([0.25, 0.5, 0.75, 1]);
    const call = mock.calls[0];
    if (!call) throw new Error("no call");
    expect(call.url.href).toBe("https://llm.example.test/v1/chat/completions");
    expect(call.headers.get("authorization")).toBe("Bearer sk-test-notes");
    expect(call.headers.get("content-type")).toBe("application/json");
    expect(call.body.model).toBe("gpt-4o-mini");
    expect(call.body.temperature).toBe(0);
    expect(call.body.response_format?.type).toBe("json_schema");
    expect(call.body.response_format?.json_schema?.strict).toBe(true);
    expect(call.body.response_format?.json_schema?.schema).toMatchObject({
      required: ["sentences"],
      properties: { sentences: { items: { required: ["text", "evidence_lines"] } } },
    });

    const [system, user] = call.body.messages;
    expect(system?.role).toBe("system");
    expect(system?.content).toContain("Write in English");
    expect(system?.content).toContain("ONLY what was explicitly said");
    expect(system?.content).toContain('Never write "not discussed"');
    expect(user?.role).toBe("user");
    // Numbered lines with audio times; a turn's line breaks collapse so one turn stays one line.
    expect(user?.content).toContain("1 [00:00-00:04] doctor: What brings you in today?");
    expect(user?.content).toContain("2 [00:04-00:09] patient: I've had a cough for two weeks, worse at night.");
    expect(user?.content).toContain("4 [01:15-01:21] doctor: Lungs are clear.");
    expect(user?.content).toContain("Onset, duration and pertinent negatives.");
    expect(user?.content).toContain("duration");
    expect(user?.content).toContain("Visit: Cough");
    expect(user?.content).toContain("female, 54 years old");
    // The name is not needed for the note and the provider may be hosted.
    expect(user?.content).not.toContain("Jane Roe");

    const plan = mock.calls[2]?.body.messages[1]?.content ?? "";
    expect(plan).toContain("bullets");
    expect(plan).toContain("concise");
    expect(plan).toContain("Discussed with the patient.");
  });

  it("writes the system prompt in the note's language and sends no key when none is configured (Ollama)", async () => {
    const ollama = engine({ baseUrl: "http://localhost:11434/v1/", apiKey: undefined, model: "llama3.1:8b" });
    await ollama.generate(input({ language: "fr", onlySections: ["hpi"] }));
    expect(mock.calls).toHaveLength(1);
    const call = mock.calls[0];
    expect(call?.url.href).toBe("http://localhost:11434/v1/chat/completions");
    expect(call?.headers.get("authorization")).toBeNull();
    expect(call?.body.model).toBe("llama3.1:8b");
    expect(call?.body.messages[0]?.content).toContain("Write in French");
  });
});

describe("OpenAI-compatible note engine: replies to sentences with evidence", () => {
  it("maps cited lines to transcript spans, flags sentences without valid evidence, renders bullets and prose", async () => {
    mock.respond(
      bySection({
        History: () =>
          sectionReply([
            { text: "Cough for two weeks, worse at night.", evidence_lines: [2] },
            { text: "Denies fever.", evidence_lines: [3, 3, 99, 0] },
            { text: "Smoker.", evidence_lines: [] },
          ]),
        Medications: () => chatCompletion({ sentences: [{ text: "Lisinopril 10 mg daily.", evidence_lines: 3 }] }),
        Plan: () => sectionReply([{ text: "- Benzonatate 100 mg.", evidence_lines: ["4", 1.5] }]),
      }),
    );
    const draft = await engine().generate(input());

    expect(draft).toMatchObject({ engine: "openai-compatible", model: "gpt-4o-mini", language: "en" });
    expect(draftFailures(draft)).toEqual([]);
    expect(draft.sections.map((s) => s.key)).toEqual(["hpi", "medications", "plan", "consent"]);
    const [hpi, medications, plan, consent] = draft.sections;
    expect(hpi?.sentences).toEqual([
      {
        text: "Cough for two weeks, worse at night.",
        evidence: [{ start: 4.5, end: 9.8, quote: "I've had a cough for two weeks,\nworse at night." }],
        supported: true,
        source: "transcript",
      },
      {
        text: "Denies fever.",
        evidence: [{ start: 10.1, end: 14, quote: "No fever. I take lisinopril 10 mg daily." }],
        supported: true,
        source: "transcript",
      },
      { text: "Smoker.", evidence: [], supported: false, source: "transcript" },
    ]);
    expect(hpi?.text).toBe("Cough for two weeks, worse at night. Denies fever. Smoker.");
    expect(medications).toMatchObject({
      key: "medications",
      title: "Medications",
      text: "- Lisinopril 10 mg daily.",
      sentences: [{ evidence: [{ start: 10.1, end: 14 }], supported: true }],
    });
    // Fixed text comes from the template verbatim, before what the model wrote; its bullet is ours, not the model's.
    expect(plan?.sentences).toEqual([
      { text: "Discussed with the patient.", evidence: [], supported: true, source: "template" },
      {
        text: "Benzonatate 100 mg.",
        evidence: [{ start: 75.5, end: 81, quote: "Lungs are clear. Let's start a trial of benzonatate 100 mg." }],
        supported: true,
        source: "transcript",
      },
    ]);
    expect(plan?.text).toBe("Discussed with the patient.\n- Benzonatate 100 mg.");
    expect(consent?.text).toBe("Verbal consent to record was obtained.");
  });

  it("carries a persistent section from the last signed note only when the visit said nothing new", async () => {
    const previous = { medications: "- Lisinopril 10 mg daily\n- Metformin 500 mg twice daily" };
    const quiet = await engine().generate(input({ onlySections: ["medications"], context: { previous } }));
    expect(quiet.sections[0]?.sentences).toEqual([
      { text: "Lisinopril 10 mg daily", evidence: [], supported: true, source: "previous" },
      { text: "Metformin 500 mg twice daily", evidence: [], supported: true, source: "previous" },
    ]);
    expect(quiet.sections[0]?.text).toBe("- Lisinopril 10 mg daily\n- Metformin 500 mg twice daily");

    mock.respond(() => sectionReply([{ text: "Lisinopril 10 mg daily.", evidence_lines: [3] }]));
    const fresh = await engine().generate(input({ onlySections: ["medications"], context: { previous } }));
    expect(fresh.sections[0]?.sentences.map((s) => s.source)).toEqual(["transcript"]);
  });

  it("drops a filler sentence that cites nothing, so an empty section stays empty", async () => {
    mock.respond(() =>
      sectionReply([
        { text: "Not discussed.", evidence_lines: [] },
        { text: "N/A", evidence_lines: [] },
      ]),
    );
    const draft = await engine().generate(input({ onlySections: ["hpi"] }));
    expect(draft.sections[0]).toMatchObject({ text: "", sentences: [] });
  });

  it("accepts a reply wrapped in a markdown code fence", async () => {
    mock.respond(() => chatCompletion('```json\n{"sentences":[{"text":"Cough.","evidence_lines":[2]}]}\n```'));
    const draft = await engine().generate(input({ onlySections: ["hpi"] }));
    expect(draft.sections[0]?.sentences[0]).toMatchObject({ text: "Cough.", supported: true });
  });

  it("runs two sections at a time and returns them in template order", async () => {
    let inFlight = 0;
    let most = 0;
    mock.respond(async (call) => {
      inFlight++;
      most = Math.max(most, inFlight);
      // The first section is the slowest, so it finishes last.
      await delay(call.section === "History" ? 150 : 20);
      inFlight--;
      return sectionReply([{ text: `${call.section} noted.`, evidence_lines: [1] }]);
    });
    const draft = await engine({ concurrency: 2 }).generate(input());
    expect(most).toBe(2);
    expect(draft.sections.map((s) => s.key)).toEqual(["hpi", "medications", "plan", "consent"]);
    expect(draft.sections[0]?.text).toBe("History noted.");
  });

  it("asks nothing when the transcript is empty", async () => {
    const draft = await engine().generate(input({ transcript: [] }));
    expect(mock.calls).toHaveLength(0);
    expect(draft.sections.map((s) => s.text)).toEqual([
      "",
      "",
      "Discussed with the patient.",
      "Verbal consent to record was obtained.",
    ]);
  });
});

describe("OpenAI-compatible note engine: structured output fallback", () => {
  it("falls back to json_object when the server answers 400 to json_schema, and keeps using it", async () => {
    mock.respond((call) =>
      call.body.response_format?.type === "json_schema"
        ? chatError(400, "response_format json_schema is not supported")
        : sectionReply([{ text: `${call.section} noted.`, evidence_lines: [1] }]),
    );
    const draft = await engine().generate(input());
    expect(mock.calls.map((c) => `${c.section}:${c.body.response_format?.type}`)).toEqual([
      "History:json_schema",
      "History:json_object",
      "Medications:json_object",
      "Plan:json_object",
    ]);
    expect(draft.sections[0]?.text).toBe("History noted.");
    expect(draftFailures(draft)).toEqual([]);
  });

  it("fails the section when json_object is rejected too", async () => {
    mock.respond(({ section: title }) => (title === "History" ? chatError(400, "bad request") : sectionReply([])));
    const draft = await engine().generate(input());
    expect(draftFailures(draft)).toEqual([{ key: "hpi", code: "engine_rejected", reason: expect.stringContaining("HTTP 400") }]);
    expect(mock.calls.filter((c) => c.section === "History").map((c) => c.body.response_format?.type)).toEqual([
      "json_schema",
      "json_object",
    ]);
  });
});

describe("OpenAI-compatible note engine: retries and failures per section", () => {
  it("waits for a 429's Retry-After, then succeeds", async () => {
    mock.respond((call) =>
      call.attempt === 0
        ? chatError(429, "rate limited", { "retry-after": "0.3" })
        : sectionReply([{ text: "Cough.", evidence_lines: [2] }]),
    );
    const started = performance.now();
    const draft = await engine({ retryBaseMs: 1 }).generate(input({ onlySections: ["hpi"] }));
    // Our own back-off would have waited about 1 ms: the wait is the server's.
    expect(performance.now() - started).toBeGreaterThanOrEqual(280);
    expect(mock.calls).toHaveLength(2);
    expect(draft.sections[0]?.text).toBe("Cough.");
  });

  it("retries 5xx with back-off, then succeeds", async () => {
    mock.respond((call) =>
      call.attempt < 2
        ? chatError(call.attempt === 0 ? 502 : 503, "upstream")
        : sectionReply([{ text: "Cough.", evidence_lines: [2] }]),
    );
    const draft = await engine({ maxRetries: 2 }).generate(input({ onlySections: ["hpi"] }));
    expect(mock.calls).toHaveLength(3);
    expect(draft.sections[0]?.sentences[0]?.supported).toBe(true);
  });

  it("fails only the section whose retries are exhausted; the other sections are kept", async () => {
    mock.respond(
      bySection({
        History: () => chatError(503, "overloaded"),
        Plan: () => sectionReply([{ text: "Benzonatate 100 mg.", evidence_lines: [4] }]),
      }),
    );
    const progress: number[] = [];
    const draft = await engine({ maxRetries: 2 }).generate(input({ onProgress: (d) => progress.push(d) }));
    expect(mock.calls.filter((c) => c.section === "History")).toHaveLength(3);
    expect(draftFailures(draft)).toEqual([{ key: "hpi", code: "engine_failed", reason: expect.stringContaining("HTTP 503") }]);
    expect(draft.sections.map((s) => s.key)).toEqual(["hpi", "medications", "plan", "consent"]);
    expect(draft.sections[0]).toMatchObject({ text: "", sentences: [] });
    expect(draft.sections[2]?.text).toBe("Discussed with the patient.\n- Benzonatate 100 mg.");
    expect(progress).toEqual([0.25, 0.5, 0.75, 1]);
  });

  it("does not carry a persistent section forward when its generation failed", async () => {
    mock.respond(
      bySection({
        Medications: () => chatError(500, "boom"),
        History: () => sectionReply([{ text: "Cough.", evidence_lines: [2] }]),
      }),
    );
    const draft = await engine({ maxRetries: 0 }).generate(
      input({ onlySections: ["hpi", "medications"], context: { previous: { medications: "- Lisinopril 10 mg daily" } } }),
    );
    expect(draftFailures(draft).map((f) => f.key)).toEqual(["medications"]);
    expect(draft.sections[1]?.sentences).toEqual([]);
  });

  it("does not retry a rejected request (401)", async () => {
    mock.respond(
      bySection({
        History: () => chatError(401, "invalid api key"),
        Plan: () => sectionReply([{ text: "Rest.", evidence_lines: [4] }]),
      }),
    );
    const draft = await engine().generate(input());
    expect(mock.calls.filter((c) => c.section === "History")).toHaveLength(1);
    expect(draftFailures(draft)).toEqual([{ key: "hpi", code: "engine_rejected", reason: expect.stringContaining("HTTP 401") }]);
  });

  it("fails the section that times out and keeps the rest", async () => {
    mock.respond(
      bySection({
        History: async () => {
          await delay(2000);
          return sectionReply([{ text: "Too late.", evidence_lines: [1] }]);
        },
        Plan: () => sectionReply([{ text: "Benzonatate 100 mg.", evidence_lines: [4] }]),
      }),
    );
    const draft = await engine({ timeoutMs: 150, maxRetries: 1 }).generate(input());
    expect(mock.calls.filter((c) => c.section === "History")).toHaveLength(2);
    expect(draftFailures(draft)).toEqual([{ key: "hpi", code: "engine_timeout", reason: "no reply within 150 ms" }]);
    expect(draft.sections[0]?.sentences).toEqual([]);
    expect(draft.sections[2]?.sentences.at(-1)?.text).toBe("Benzonatate 100 mg.");
  });

  it.each([
    ["content that is not JSON", () => chatCompletion("Here is the section: cough for two weeks."), /section reply is not JSON/],
    ["sentences that are not a list", () => chatCompletion({ sentences: "Cough." }), /unexpected section reply at sentences/],
    [
      "a sentence without text",
      () => chatCompletion({ sentences: [{ evidence_lines: [1] }] }),
      /unexpected section reply at sentences.0.text/,
    ],
    [
      "a completion that is not JSON",
      () => new Response("<html>502 Bad Gateway</html>", { status: 200 }),
      /completion is not JSON/,
    ],
    ["a completion without choices", () => Response.json({ choices: [] }), /unexpected completion shape at choices/],
    ["an empty completion", () => chatCompletion(null, { finishReason: "length" }), /empty completion \(finish_reason length\)/],
  ])("fails only that section on %s", async (_label, reply, reason) => {
    mock.respond(bySection({ History: reply, Plan: () => sectionReply([{ text: "Rest.", evidence_lines: [4] }]) }));
    const draft = await engine().generate(input());
    const failures = draftFailures(draft);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ key: "hpi", code: "engine_bad_response" });
    expect(failures[0]?.reason).toMatch(reason);
    // A malformed reply is not retried: at temperature 0 the same request gives the same answer.
    expect(mock.calls.filter((c) => c.section === "History")).toHaveLength(1);
    expect(draft.sections[2]?.text).toBe("Discussed with the patient.\n- Rest.");
  });

  it("throws when every section that needed the model failed: there is no note to keep", async () => {
    mock.respond(() => chatError(503, "down"));
    const error = await failure(engine({ maxRetries: 1 }).generate(input()));
    expect(error.code).toBe("engine_failed");
    expect(error.retryable).toBe(true);
  });
});

describe("OpenAI-compatible note engine: abort", () => {
  it("stops everything when the caller aborts mid-request", async () => {
    const controller = new AbortController();
    mock.respond(async () => {
      controller.abort();
      await delay(1000);
      return sectionReply([]);
    });
    const error = await failure(engine({ concurrency: 2 }).generate(input({ signal: controller.signal })));
    expect(error.code).toBe("cancelled");
    // Both workers had started one section; none started another after the abort.
    expect(mock.calls.length).toBeLessThanOrEqual(2);
  });

  it("stops during a back-off wait", async () => {
    const controller = new AbortController();
    mock.respond(() => {
      setTimeout(() => controller.abort(), 20);
      return chatError(503, "busy");
    });
    const error = await failure(engine({ retryBaseMs: 5000 }).generate(input({ signal: controller.signal })));
    expect(error.code).toBe("cancelled");
    expect(mock.calls).toHaveLength(1);
  });

  it("asks nothing when already aborted", async () => {
    const error = await failure(engine().generate(input({ signal: AbortSignal.abort() })));
    expect(error.code).toBe("cancelled");
    expect(mock.calls).toHaveLength(0);
  });
});
