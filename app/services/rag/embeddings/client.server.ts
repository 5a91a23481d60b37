import type { EmbeddingsEnv } from "./env.ts";

// The OpenAI-compatible embeddings client (POST {base}/embeddings). One request per batch; a
// vector of the wrong length or a count that does not match the inputs is an error, never stored.

export interface EmbeddingsClient {
  model: string;
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

export class EmbeddingsError extends Error {}

export function createEmbeddingsClient(env: EmbeddingsEnv): EmbeddingsClient | null {
  if (!env.EMBEDDINGS_BASE_URL || !env.EMBEDDINGS_MODEL) return null;
  const url = `${env.EMBEDDINGS_BASE_URL.replace(/\/+$/, "")}/embeddings`;
  const model = env.EMBEDDINGS_MODEL;
  const dims = env.EMBEDDINGS_DIMENSIONS;
  return {
    model,
    async embed(texts, signal) {
      if (texts.length === 0) return [];
      const timeout = AbortSignal.timeout(env.EMBEDDINGS_TIMEOUT_MS);
      const res = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(env.EMBEDDINGS_API_KEY ? { authorization: `Bearer ${env.EMBEDDINGS_API_KEY}` } : {}),
        },
        body: JSON.stringify({ model, input: texts, ...(dims ? { dimensions: dims } : {}) }),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      if (!res.ok) throw new EmbeddingsError(`embeddings server answered ${res.status}`);
      const body = (await res.json()) as { data?: Array<{ index?: number; embedding?: unknown }> };
      const data = Array.isArray(body.data) ? [...body.data] : [];
      if (data.length !== texts.length) throw new EmbeddingsError(`expected ${texts.length} embeddings, got ${data.length}`);
      data.sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
      return data.map((d) => {
        const v = d.embedding;
        if (!Array.isArray(v) || v.length === 0 || v.some((x) => typeof x !== "number" || !Number.isFinite(x))) {
          throw new EmbeddingsError("an embedding is not a list of numbers");
        }
        if (dims && v.length !== dims) throw new EmbeddingsError(`expected ${dims} dimensions, got ${v.length}`);
        return v as number[];
      });
    },
  };
}
