// Decoder-settings sweep for the voice recogniser (issue 14; ADR 0014). Decodes the same corpus as
// run.ts under several candidate settings and prints digit accuracy per speaker and the commonest
// errors for each. Use it on the TUNING takes only (--takes 0-9); the figures to report come from
// run.ts on the held-out takes with whatever settings voice-recogniser.ts ships.
//
//   node bench/perio-voice/tune.ts --digits-dir <folder> --takes 0-9 --configs '[{"name":"a","settings":{"lw":8}}]'
import { parseArgs } from "node:util";
import createModule from "soundswallower";
import { parseVoice } from "#app/services/perio/voice-grammar.ts";
import { createPerioDecoder, decodeUtterance, type RecogniserOptions } from "#app/services/perio/voice-recogniser.ts";
import { align, buildCorpus, tallyEdits } from "./corpus.ts";

const { values: opts } = parseArgs({
  options: {
    "digits-dir": { type: "string" },
    takes: { type: "string", default: "0-9" },
    limit: { type: "string" },
    seed: { type: "string", default: "14" },
    configs: { type: "string", default: '[{"name":"shipped"}]' },
    top: { type: "string", default: "12" },
  },
});
if (!opts["digits-dir"]) throw new Error("--digits-dir is required");
/** `second`: a differently set-up decoder whose disagreement counts as low confidence. */
type Candidate = { name: string; second?: RecogniserOptions } & RecogniserOptions;
const candidates = JSON.parse(opts.configs) as Candidate[];
const { utterances } = buildCorpus(opts["digits-dir"], {
  seed: Number(opts.seed),
  takes: opts.takes,
  limit: opts.limit ? Number(opts.limit) : undefined,
});
const modelBase = new URL("../../node_modules/soundswallower/model/", import.meta.url).pathname;
const ss = await createModule({ modelBase } as Parameters<typeof createModule>[0]);

for (const c of candidates) {
  const t0 = performance.now();
  const perSpeaker = new Map<string, { n: number; e: number }>();
  const edits = new Map<string, number>();
  const speakerEdits = new Map<string, Map<string, number>>();
  const scored: { confidence: number; right: boolean }[] = [];
  let decoder = await createPerioDecoder(ss, "en", c);
  let second = c.second ? await createPerioDecoder(ss, "en", c.second) : null;
  const agreement = { agree: 0, agreeRight: 0, wrong: 0, wrongStopped: 0 };
  let speaker = "";
  let n = 0;
  let e = 0;
  for (const u of utterances) {
    // A fresh decoder per speaker session, as the browser starts one when voice mode is switched on.
    if (u.speaker !== speaker && speaker !== "") {
      decoder.delete();
      decoder = await createPerioDecoder(ss, "en", c);
      if (second && c.second) {
        second.delete();
        second = await createPerioDecoder(ss, "en", c.second);
      }
    }
    speaker = u.speaker;
    const { text, confidence } = decodeUtterance(decoder, u.audio, c);
    const cmd = parseVoice(text, "en");
    const hyp = cmd?.kind === "values" ? cmd.values : [];
    const ed = align(u.ref, hyp);
    tallyEdits(ed, edits);
    tallyEdits(
      ed.map((x) => x),
      speakerEdits.get(u.speaker) ?? speakerEdits.set(u.speaker, new Map()).get(u.speaker) ?? new Map(),
    );
    const err = Math.min(ed.length, u.ref.length);
    if (cmd) scored.push({ confidence, right: err === 0 });
    if (second && c.second) {
      const other = decodeUtterance(second, u.audio, c.second).text;
      if (err > 0) agreement.wrong++;
      if (other === text) {
        agreement.agree++;
        if (err === 0) agreement.agreeRight++;
      } else if (err > 0) agreement.wrongStopped++;
    }
    n += u.ref.length;
    e += err;
    const s = perSpeaker.get(u.speaker) ?? { n: 0, e: 0 };
    perSpeaker.set(u.speaker, { n: s.n + u.ref.length, e: s.e + err });
  }
  decoder.delete();
  second?.delete();
  const pct = (x: number) => (100 * x).toFixed(1);
  const speakers = [...perSpeaker].sort().map(([s, v]) => `${s} ${pct(1 - v.e / v.n)}`);
  const worst = [...edits].sort((a, b) => b[1] - a[1]).slice(0, Number(opts.top));
  console.log(
    `${c.name}: ${pct(1 - e / n)}% of ${n} | ${speakers.join(", ")} | ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
  console.log(`  errors: ${worst.map(([k, v]) => `${k}×${v}`).join(" ")}`);
  // The confidence threshold's trade-off: share of utterances rejected vs share of written ones right.
  const sweep = [0, 0.8, 0.85, 0.88, 0.9, 0.92, 0.94].map((t) => {
    const kept = scored.filter((x) => x.confidence >= t);
    return `≥${t}: reject ${pct(1 - kept.length / utterances.length)}%, right ${pct(kept.filter((x) => x.right).length / Math.max(1, kept.length))}%`;
  });
  console.log(`  confidence: ${sweep.join("; ")}`);
  if (second)
    console.log(
      `  second opinion: ${pct(1 - agreement.agree / utterances.length)}% rejected, ${pct(agreement.agreeRight / Math.max(1, agreement.agree))}% of written right, ${agreement.wrongStopped} of ${agreement.wrong} wrong stopped`,
    );
  for (const [s, m] of [...speakerEdits].sort()) {
    const top = [...m].sort((a, b) => b[1] - a[1]).slice(0, 6);
    console.log(`    ${s}: ${top.map(([k, v]) => `${k}×${v}`).join(" ")}`);
  }
}
