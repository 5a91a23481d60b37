import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createNoteEngine, NotesEnvError, parseNotesEnv } from "#app/services/notes/engines/registry.server.ts";
import { EnvError, parseEnv } from "#app/utils/env.server.ts";
import { createOpenAiChatMock, sectionReply } from "#tests/mocks/openai-chat.ts";

const mock = createOpenAiChatMock();
beforeAll(() => mock.listen());
afterAll(() => mock.close());
beforeEach(() => mock.reset());

function configError(source: Record<string, string>): string {
  try {
    parseNotesEnv(source);
  } catch (error) {
    if (error instanceof NotesEnvError) return error.message;
    throw error;
  }
  throw new Error("expected a NotesEnvError");
}

describe("note engine configuration", () => {
  it("defaults to the offline extractive engine", () => {
    const env = parseNotesEnv({});
    expect(env).toEqual({ NOTES_ENGINE: "extractive", LLM_OPENAI_TIMEOUT_MS: 120_000, LLM_OPENAI_MAX_RETRIES: 3 });
    expect(createNoteEngine(env).id).toBe("extractive");
    // Empty values, as a copied .env.example leaves them, mean "unset".
    expect(
      parseNotesEnv({ NOTES_ENGINE: "", LLM_OPENAI_BASE_URL: "", LLM_OPENAI_MODEL: "", LLM_OPENAI_TIMEOUT_MS: "" }).NOTES_ENGINE,
    ).toBe("extractive");
  });

  it("builds the openai-compatible engine from its variables, and it calls the configured server", async () => {
    const env = parseNotesEnv({
      NOTES_ENGINE: "openai-compatible",
      LLM_OPENAI_BASE_URL: "http://localhost:11434/v1",
      LLM_OPENAI_MODEL: "llama3.1:8b",
      LLM_OPENAI_API_KEY: "ollama",
      LLM_OPENAI_TIMEOUT_MS: "30000",
      LLM_OPENAI_MAX_RETRIES: "0",
    });
    expect(env).toMatchObject({ LLM_OPENAI_TIMEOUT_MS: 30_000, LLM_OPENAI_MAX_RETRIES: 0 });
    const engine = createNoteEngine(env);
    expect(engine.id).toBe("openai-compatible");

    mock.respond(() => sectionReply([{ text: "Cough.", evidence_lines: [1] }]));
    const draft = await engine.generate({
      template: {
        id: "builtin:t",
        name: "T",
        language: "en",
        sections: [
          { key: "hpi", title: "HPI", kind: "hpi", header: "always", style: "prose", verbosity: "standard", persistent: false },
        ],
      },
      transcript: [{ start: 0, end: 2, text: "I have a cough." }],
      language: "en",
    });
    expect(mock.calls[0]?.url.href).toBe("http://localhost:11434/v1/chat/completions");
    expect(mock.calls[0]?.headers.get("authorization")).toBe("Bearer ollama");
    expect(mock.calls[0]?.body.model).toBe("llama3.1:8b");
    expect(draft).toMatchObject({ engine: "openai-compatible", model: "llama3.1:8b" });
  });

  it("stops with a clear error naming each missing or bad variable", () => {
    const missing = configError({ NOTES_ENGINE: "openai-compatible" });
    expect(missing).toContain("LLM_OPENAI_BASE_URL: NOTES_ENGINE=openai-compatible needs the server's base URL");
    expect(missing).toContain("LLM_OPENAI_MODEL: NOTES_ENGINE=openai-compatible needs a model name");

    expect(configError({ NOTES_ENGINE: "gpt-4" })).toContain("NOTES_ENGINE: must be extractive or openai-compatible");
    expect(configError({ LLM_OPENAI_BASE_URL: "localhost:11434" })).toContain("LLM_OPENAI_BASE_URL: must be an http(s) URL");
    expect(configError({ LLM_OPENAI_TIMEOUT_MS: "soon" })).toContain("LLM_OPENAI_TIMEOUT_MS");
    expect(configError({ LLM_OPENAI_TIMEOUT_MS: "10" })).toContain("LLM_OPENAI_TIMEOUT_MS: must be at least 1000 (ms)");
    expect(configError({ LLM_OPENAI_MAX_RETRIES: "-1" })).toContain("LLM_OPENAI_MAX_RETRIES");
    // The extractive engine ignores the LLM settings, but a typo in them is still reported at boot.
    expect(configError({ NOTES_ENGINE: "extractive", LLM_OPENAI_MAX_RETRIES: "many" })).toContain("LLM_OPENAI_MAX_RETRIES");
  });

  it("refuses to build openai-compatible from an incomplete hand-made configuration", () => {
    expect(() =>
      createNoteEngine({ NOTES_ENGINE: "openai-compatible", LLM_OPENAI_TIMEOUT_MS: 1000, LLM_OPENAI_MAX_RETRIES: 0 }),
    ).toThrow(NotesEnvError);
  });

  it("is part of the boot-time environment check", () => {
    expect(parseEnv({}).NOTES_ENGINE).toBe("extractive");
    expect(() => parseEnv({ NOTES_ENGINE: "openai-compatible", LLM_OPENAI_MODEL: "gpt-4o-mini" })).toThrow(EnvError);
    expect(() => parseEnv({ NOTES_ENGINE: "openai-compatible", LLM_OPENAI_MODEL: "gpt-4o-mini" })).toThrow(/LLM_OPENAI_BASE_URL/);
    const env = parseEnv({
      NOTES_ENGINE: "openai-compatible",
      LLM_OPENAI_BASE_URL: "https://api.openai.com/v1",
      LLM_OPENAI_MODEL: "gpt-4o-mini",
    });
    // The validated env feeds the registry as is.
    expect(createNoteEngine(parseNotesEnv(env)).id).toBe("openai-compatible");
  });
});
