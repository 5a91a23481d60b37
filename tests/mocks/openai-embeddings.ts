import { HttpResponse, http } from "msw";
import { type SetupServer, setupServer } from "msw/node";

/**
 * A stand-in for an OpenAI-compatible /v1/embeddings server (OpenAI, Ollama, vLLM…) for msw. Its
 * vectors are deterministic: each word is mapped to a concept (the CONCEPTS table plays the
 * "meaning" a real model learnt, so "belly" and "epigastrium" land together while sharing no
 * letters), the concepts are hashed into `dims` buckets, and the sum is normalised. Every call is
 * recorded; `fail` makes the next calls answer 500.
 */
export const CONCEPTS: Record<string, string> = {
  belly: "abdomen",
  tummy: "abdomen",
  stomach: "abdomen",
  epigastrium: "abdomen",
  epigastric: "abdomen",
  abdominal: "abdomen",
  ache: "pain",
  aches: "pain",
  gnawing: "pain",
  pain: "pain",
  hurts: "pain",
  sore: "pain",
};

export interface EmbeddingsCall {
  url: URL;
  headers: Headers;
  body: { model: string; input: string[]; dimensions?: number };
}

export function conceptVector(text: string, dims: number): number[] {
  const v = new Array<number>(dims).fill(0);
  for (const word of text.toLowerCase().match(/[a-zà-ÿ]+/g) ?? []) {
    const concept = CONCEPTS[word] ?? word;
    let h = 2166136261;
    for (const ch of concept) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
    v[h % dims] = (v[h % dims] ?? 0) + (CONCEPTS[word] ? 3 : 1);
  }
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  return v.map((x) => x / norm);
}

export interface EmbeddingsMock {
  server: SetupServer;
  calls: EmbeddingsCall[];
  /** Answer 500 to every call while true. */
  fail: boolean;
}

export function createEmbeddingsMock(baseUrl: string, dims = 64): EmbeddingsMock {
  const mock: EmbeddingsMock = {
    calls: [],
    fail: false,
    server: setupServer(
      http.post(`${baseUrl.replace(/\/+$/, "")}/embeddings`, async ({ request }) => {
        const body = (await request.json()) as EmbeddingsCall["body"];
        mock.calls.push({ url: new URL(request.url), headers: request.headers, body });
        if (mock.fail) return HttpResponse.json({ error: { message: "overloaded" } }, { status: 500 });
        const size = body.dimensions ?? dims;
        return HttpResponse.json({
          object: "list",
          model: body.model,
          data: body.input.map((text, index) => ({ object: "embedding", index, embedding: conceptVector(text, size) })),
          usage: { prompt_tokens: 1, total_tokens: 1 },
        });
      }),
    ),
  };
  return mock;
}
