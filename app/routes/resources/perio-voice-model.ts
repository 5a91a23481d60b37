import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Route } from "./+types/perio-voice-model";

// The voice chart's acoustic models (ADR 0014), served from the soundswallower package so the
// browser recognises speech offline: only these two models and their known files, nothing else.
const MODELS = new Set(["en-us", "fr-fr"]);
const FILES = new Set([
  "dict.txt",
  "feat_params.json",
  "mdef",
  "means",
  "noisedict.txt",
  "phoneset.json",
  "sendump",
  "transition_matrices",
  "variances",
]);
const MODEL_DIR = path.resolve(process.cwd(), "node_modules/soundswallower/model");

export async function loader({ params }: Route.LoaderArgs) {
  if (!MODELS.has(params.model) || !FILES.has(params.file)) {
    return Response.json({ code: "not_found", message: "No such model file" }, { status: 404 });
  }
  const body = await readFile(path.join(MODEL_DIR, params.model, params.file));
  return new Response(new Uint8Array(body), {
    headers: {
      "Content-Type": params.file.endsWith(".json")
        ? "application/json"
        : params.file.endsWith(".txt")
          ? "text/plain; charset=utf-8"
          : "application/octet-stream",
      "Cache-Control": "public, max-age=86400",
    },
  });
}

export { action } from "./method-not-allowed.ts";
