// ROUGE as ACI-Bench computes it (rouge-score 0.1.2 through HF evaluate), checked on cases
// worked out by hand.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readCsvObjects } from "../../bench/notes/aci-data.ts";
import { meanRouge, rougeLsum, rougeN, tokenize } from "../../bench/notes/rouge.ts";
import { aciBenchDir, loadAciSplit } from "./aci-bench.ts";

describe("tokenize", () => {
  it("lowercases, turns every non [a-z0-9] run into a space, and does not stem", () => {
    expect(tokenize("Denies chest-pain; BP 120/80 mmHg, running.")).toEqual([
      "denies",
      "chest",
      "pain",
      "bp",
      "120",
      "80",
      "mmhg",
      "running",
    ]);
    expect(tokenize("• Café — naïve")).toEqual(["caf", "na", "ve"]);
    expect(tokenize("  ")).toEqual([]);
  });
});

describe("rouge-N", () => {
  it("counts clipped unigram overlap", () => {
    // target: the cat sat on the mat (6) · prediction: the cat the (3); overlap the×2 + cat = 3
    const s = rougeN("the cat sat on the mat", "the cat the", 1);
    expect(s.precision).toBe(1);
    expect(s.recall).toBe(0.5);
    expect(s.fmeasure).toBeCloseTo(2 / 3, 12);
  });

  it("counts bigrams", () => {
    // target bigrams: the cat, cat sat, sat on, on the, the mat (5) · prediction: the cat, cat on, on the (3); overlap 2
    const s = rougeN("the cat sat on the mat", "the cat on the", 2);
    expect(s.precision).toBeCloseTo(2 / 3, 12);
    expect(s.recall).toBeCloseTo(2 / 5, 12);
    expect(s.fmeasure).toBeCloseTo((2 * (2 / 3) * (2 / 5)) / (2 / 3 + 2 / 5), 12);
  });

  it("is zero when nothing overlaps or a side is empty", () => {
    expect(rougeN("a b c", "d e f", 1).fmeasure).toBe(0);
    expect(rougeN("a b c", "", 1).fmeasure).toBe(0);
    expect(rougeN("a", "a", 2).fmeasure).toBe(0);
  });
});

describe("rougeLsum", () => {
  it("equals the LCS on single sentences", () => {
    // LCS of "a b c d e" and "a c e f" is "a c e" = 3 → P 3/4, R 3/5
    const s = rougeLsum("a b c d e", "a c e f");
    expect(s.precision).toBeCloseTo(3 / 4, 12);
    expect(s.recall).toBeCloseTo(3 / 5, 12);
  });

  it("takes the union LCS of each reference sentence over the predicted sentences, split on newlines", () => {
    // ref: [a b c d], [e f] · pred: [a b x], [c d e]
    // sentence 1: LCS with pred1 = {a,b}, with pred2 = {c,d} → union 4 hits; sentence 2: LCS with pred2 = {e} → 1
    // hits 5 (counts allow), m = 6, n = 6
    const s = rougeLsum("a b c d\ne f", "a b x\nc d e");
    expect(s.recall).toBeCloseTo(5 / 6, 12);
    expect(s.precision).toBeCloseTo(5 / 6, 12);
    // The same text on one line scores differently: newline splitting is what makes it "sum".
    expect(rougeLsum("a b c d e f", "a b x c d e").recall).toBeCloseTo(5 / 6, 12);
    expect(rougeLsum("a b c d\ne f", "c d e\na b x").recall).toBeCloseTo(5 / 6, 12);
    expect(rougeLsum("a b c d e f", "c d e a b x").recall).toBeCloseTo(3 / 6, 12);
  });

  it("clips hits by token counts across sentences", () => {
    // ref [a a] · pred [a], [a], [a]: union LCS for the ref sentence = {0} (each LCS is the first a); 1 hit
    const s = rougeLsum("a a", "a\na\na");
    expect(s.recall).toBeCloseTo(1 / 2, 12);
    expect(s.precision).toBeCloseTo(1 / 3, 12);
  });

  it("ignores empty lines", () => {
    expect(rougeLsum("a b\n\n\nc", "a b c").fmeasure).toBeCloseTo(rougeLsum("a b\nc", "a b c").fmeasure, 12);
    expect(rougeLsum("", "a").fmeasure).toBe(0);
  });
});

describe("meanRouge", () => {
  it("averages per-note F-measures and scales by 100", () => {
    const r = meanRouge([
      { target: "a b", prediction: "a b" },
      { target: "a b", prediction: "c d" },
    ]);
    expect(r.r1).toBeCloseTo(50, 10);
    expect(r.r2).toBeCloseTo(50, 10);
    expect(r.rlsum).toBeCloseTo(50, 10);
  });
});

describe.skipIf(aciBenchDir() === null)("against a published run", () => {
  it("reproduces the metric dump of the LED run on ACI-Bench valid (wanglab) to 10 decimals", () => {
    const dir = join(aciBenchDir() as string, "published_results", "wanglab_validation");
    const targets = new Map(loadAciSplit("valid").map((e) => [e.id, e.note]));
    const rows = readCsvObjects(join(dir, "human_eval", "led_large_pubmed_run1_postprocess.csv"));
    const pairs = rows.map((row) => ({ target: targets.get(row.TestID ?? "") ?? "", prediction: row.SystemOutput ?? "" }));
    const published = JSON.parse(
      readFileSync(join(dir, "fine_tuning", "taskB_led_large_pubmed_run1_postprocess.json"), "utf8"),
    ).all;
    const r = meanRouge(pairs);
    expect(rows).toHaveLength(20);
    expect(r.r1 / 100).toBeCloseTo(published.rouge1, 10);
    expect(r.r2 / 100).toBeCloseTo(published.rouge2, 10);
    expect(r.rlsum / 100).toBeCloseTo(published.rougeLsum, 10);
  });
});
