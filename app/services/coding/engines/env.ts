import { z } from "zod";

const emptyAsUndefined = (v: unknown) => (v === "" ? undefined : v);

export const CODING_ENGINE_IDS = ["embedded", "openai-compatible"] as const;

/**
 * The coding engine a deployment uses (docs/coding.md "Engines"). openai-compatible reuses the note
 * engines' LLM_OPENAI_* server settings; its proposals are always checked against the code tables.
 */
export const CodingEnvShape = {
  CODING_ENGINE: z.preprocess(
    emptyAsUndefined,
    z.enum(CODING_ENGINE_IDS, { error: "must be embedded or openai-compatible" }).default("embedded"),
  ),
};
