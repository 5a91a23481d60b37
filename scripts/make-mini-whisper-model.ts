// `node scripts/make-mini-whisper-model.ts --out <file> [--seed N] [--multilingual]`: writes a
// miniature whisper.cpp GGML model (real file format, tiny dimensions, seeded random weights,
// ~4 MB). whisper.cpp loads and runs it; it transcribes nonsense. The tests use it to exercise the
// real loading, decoding, timestamp, error and cancellation paths without model weights (ADR 0029).
// Its SHA-1 is not a published one: load it with ASR_WHISPER_ALLOW_UNKNOWN=1 (refused in production).
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { makeMiniWhisperModel } from "#app/services/speech/whisper-mini-model.ts";

const { values } = parseArgs({
  options: {
    out: { type: "string" },
    seed: { type: "string", default: "1" },
    multilingual: { type: "boolean", default: false },
  },
});
if (!values.out || !/^\d+$/.test(values.seed)) {
  console.error("usage: node scripts/make-mini-whisper-model.ts --out <file> [--seed N] [--multilingual]");
  process.exit(2);
}
const bytes = makeMiniWhisperModel({ seed: Number(values.seed), multilingual: values.multilingual });
writeFileSync(values.out, bytes);
console.log(`${values.out}: ${bytes.length} bytes, sha1 ${createHash("sha1").update(bytes).digest("hex")}`);
