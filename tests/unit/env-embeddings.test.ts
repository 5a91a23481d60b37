import { describe, expect, it } from "vitest";
import { createEmbeddingsClient } from "#app/services/rag/embeddings/client.server.ts";
import { EnvError, parseEnv } from "#app/utils/env.server.ts";

// EMBEDDINGS_* (issue 12 dense retrieval, ADR 0020) is validated at boot with the rest of the env:
// off when unset or blank, on with a base URL and a model, and half a configuration stops the server.
describe("EMBEDDINGS_* in the validated environment", () => {
  it("is off when unset or blank", () => {
    expect(createEmbeddingsClient(parseEnv({}))).toBeNull();
    const blank = parseEnv({ EMBEDDINGS_BASE_URL: "", EMBEDDINGS_MODEL: "", EMBEDDINGS_DIMENSIONS: "", EMBEDDINGS_API_KEY: "" });
    expect(createEmbeddingsClient(blank)).toBeNull();
    expect(blank.EMBEDDINGS_TIMEOUT_MS).toBe(10_000);
  });

  it("is on with a base URL and a model", () => {
    const env = parseEnv({
      EMBEDDINGS_BASE_URL: "http://localhost:11434/v1",
      EMBEDDINGS_MODEL: "nomic-embed-text",
      EMBEDDINGS_DIMENSIONS: "768",
    });
    expect(env.EMBEDDINGS_DIMENSIONS).toBe(768);
    expect(createEmbeddingsClient(env)?.model).toBe("nomic-embed-text");
  });

  it("refuses half a configuration and bad values, naming the variable", () => {
    expect(() => parseEnv({ EMBEDDINGS_BASE_URL: "https://api.openai.com/v1" })).toThrow(/EMBEDDINGS_MODEL/);
    expect(() => parseEnv({ EMBEDDINGS_MODEL: "text-embedding-3-small" })).toThrow(/EMBEDDINGS_BASE_URL/);
    expect(() => parseEnv({ EMBEDDINGS_API_KEY: "sk-x" })).toThrow(EnvError);
    expect(() => parseEnv({ EMBEDDINGS_BASE_URL: "ftp://x", EMBEDDINGS_MODEL: "m" })).toThrow(/EMBEDDINGS_BASE_URL/);
    expect(() => parseEnv({ EMBEDDINGS_BASE_URL: "http://x/v1", EMBEDDINGS_MODEL: "m", EMBEDDINGS_DIMENSIONS: "5000" })).toThrow(
      /EMBEDDINGS_DIMENSIONS/,
    );
  });
});
