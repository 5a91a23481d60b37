import type { ActorTransaction } from "#app/db/actor.server.ts";
import { rankDense } from "./dense.server.ts";
import type { EmbeddingsClient } from "./embeddings/client.server.ts";
import { reciprocalRankFusion } from "./fusion.ts";
import type { RankedPassage } from "./model.ts";
import { type RankRecordsArgs, rankRecords } from "./search.server.ts";

// Full text alone, or full text fused with dense retrieval by reciprocal rank fusion when the
// question could be embedded (issue 12 "Optional dense retrieval", ADR 0020).

export interface QuestionVector {
  model: string;
  vector: number[];
}

/**
 * The question's embedding, or null when dense retrieval is off or the embeddings server fails or
 * is slow: the full-text ranking then answers alone, as it does without configuration.
 */
export async function embedQuestion(
  client: EmbeddingsClient | null | undefined,
  question: string,
  signal?: AbortSignal,
): Promise<QuestionVector | null> {
  if (!client) return null;
  try {
    const [vector] = await client.embed([question], signal);
    return vector ? { model: client.model, vector } : null;
  } catch {
    return null;
  }
}

/** How deep each list goes before fusion: deeper than the answer so a passage second in one list can win. */
const POOL = (limit: number) => Math.max(limit * 3, 24);

export async function rankHybrid(
  trx: ActorTransaction,
  args: RankRecordsArgs & { dense?: QuestionVector | null },
): Promise<RankedPassage[]> {
  if (!args.dense) return rankRecords(trx, args);
  const pool = POOL(args.limit);
  // One connection: the two rankings run one after the other in the caller's transaction.
  const text = await rankRecords(trx, { ...args, limit: pool });
  const dense = await rankDense(trx, { ...args, ...args.dense, limit: pool });
  return reciprocalRankFusion([text, dense], (p) => p.id)
    .slice(0, args.limit)
    .map(({ item, score, ranks }) => {
      const { features, ...passage } = item;
      if (!args.debug) return { ...passage, score };
      const similarity = dense.find((d) => d.id === item.id)?.score ?? 0;
      const textFeatures = text.find((t) => t.id === item.id)?.features ?? {};
      return {
        ...passage,
        score,
        features: { ...textFeatures, similarity, text_rank: ranks[0] ?? 0, dense_rank: ranks[1] ?? 0, rrf: score },
      };
    });
}
