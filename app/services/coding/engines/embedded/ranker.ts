// The embedded engine's learned ranking: a logistic combination of a candidate code's evidence
// (title and learned-phrase match strength, repeats, where it is first mentioned, how specific the
// matched title is, how often coders use the code). Fitted by scripts/train-coding-lexicon.ts on
// CodiEsp train with cross-fitting (each fold scored by a lexicon trained without it), never on dev.
// Its probability is the suggestion's confidence.

export interface CandidateStats {
  titleScore: number;
  learnedScore: number;
  mentions: number;
  /** 0 = first sentence of the document, 1 = last. */
  firstPosition: number;
  /** Best P(code | phrase) among its learned-phrase mentions (0 when none). */
  maxP: number;
  /** Most required words of a matched title (0 when only learned phrases matched). */
  titleWords: number;
  /** Share of training documents coded with it (0 when unseen). */
  prior: number;
  /** Share of training documents coded in the code's 3-character category (0 when unseen). */
  categoryPrior: number;
  /** Other confident candidates in the same category. */
  siblings: number;
  /** Negated or uncertain mentions of the same code elsewhere in the text. */
  doubted: number;
  /** Where the code is last mentioned (0 = first sentence, 1 = last). */
  lastPosition: number;
  /** Tail candidates only (engine.ts): category-title match strength, and mentions of each tail kind. */
  categoryScore: number;
  subsumed: number;
  weak: number;
  category: number;
}

export interface RankerModel {
  features: string[];
  mean: number[];
  std: number[];
  weights: number[];
  bias: number;
}

export const FEATURES = [
  "log_title_score",
  "log_learned_score",
  "has_title",
  "has_learned",
  "log_mentions",
  "early",
  "max_p",
  "title_words",
  "log_prior",
  "seen_in_training",
  "title_and_learned",
  "log_category_prior",
  "log_siblings",
  "late",
  "doubted",
];

export function featureVector(c: CandidateStats): number[] {
  const hasTitle = c.titleScore > 0 ? 1 : 0;
  const hasLearned = c.learnedScore > 0 ? 1 : 0;
  return [
    Math.log1p(c.titleScore),
    Math.log1p(c.learnedScore),
    hasTitle,
    hasLearned,
    Math.log1p(c.mentions),
    1 - c.firstPosition,
    c.maxP,
    Math.min(6, c.titleWords),
    Math.log(c.prior + 1e-3),
    c.prior > 0 ? 1 : 0,
    hasTitle * hasLearned,
    Math.log(c.categoryPrior + 1e-3),
    Math.log1p(c.siblings),
    c.lastPosition,
    c.doubted > 0 ? 1 : 0,
  ];
}

/** The tail ranker's features: how a candidate without a confident match was found. */
export const TAIL_FEATURES = [
  "log_title_score",
  "log_learned_score",
  "log_category_score",
  "log_mentions",
  "early",
  "max_p",
  "title_words",
  "log_prior",
  "seen_in_training",
  "has_subsumed",
  "has_weak",
  "has_category",
];

export function tailFeatureVector(c: CandidateStats): number[] {
  return [
    Math.log1p(c.titleScore),
    Math.log1p(c.learnedScore),
    Math.log1p(c.categoryScore),
    Math.log1p(c.mentions),
    1 - c.firstPosition,
    c.maxP,
    Math.min(6, c.titleWords),
    Math.log(c.prior + 1e-3),
    c.prior > 0 ? 1 : 0,
    c.subsumed > 0 ? 1 : 0,
    c.weak > 0 ? 1 : 0,
    c.category > 0 ? 1 : 0,
  ];
}

export function probability(model: RankerModel, x: number[]): number {
  let z = model.bias;
  // Over the model's own features: a file fitted before a feature was appended still scores.
  for (let i = 0; i < model.weights.length; i++) z += model.weights[i]! * ((x[i]! - model.mean[i]!) / model.std[i]!);
  return 1 / (1 + Math.exp(-z));
}

/** Logistic regression by full-batch gradient descent (Adam) with a little L2; deterministic. */
export function fitRanker(xs: number[][], ys: number[], features = FEATURES, iterations = 800, l2 = 1e-3): RankerModel {
  const d = features.length;
  const mean = Array.from({ length: d }, (_, j) => xs.reduce((s, x) => s + x[j]!, 0) / xs.length);
  const std = Array.from({ length: d }, (_, j) => {
    const v = xs.reduce((s, x) => s + (x[j]! - mean[j]!) ** 2, 0) / xs.length;
    return Math.sqrt(v) || 1;
  });
  const zs = xs.map((x) => x.map((v, j) => (v - mean[j]!) / std[j]!));
  const w = new Array(d + 1).fill(0);
  const m = new Array(d + 1).fill(0);
  const v = new Array(d + 1).fill(0);
  const lr = 0.05;
  for (let t = 1; t <= iterations; t++) {
    const g = new Array(d + 1).fill(0);
    for (let i = 0; i < zs.length; i++) {
      const z = zs[i]!;
      let s = w[d];
      for (let j = 0; j < d; j++) s += w[j] * z[j]!;
      const err = 1 / (1 + Math.exp(-s)) - ys[i]!;
      for (let j = 0; j < d; j++) g[j] += err * z[j]!;
      g[d] += err;
    }
    for (let j = 0; j <= d; j++) {
      const grad = g[j] / zs.length + (j < d ? l2 * w[j] : 0);
      m[j] = 0.9 * m[j] + 0.1 * grad;
      v[j] = 0.999 * v[j] + 0.001 * grad * grad;
      w[j] -= (lr * (m[j] / (1 - 0.9 ** t))) / (Math.sqrt(v[j] / (1 - 0.999 ** t)) + 1e-8);
    }
  }
  const round = (x: number) => Math.round(x * 1e5) / 1e5;
  return { features, mean: mean.map(round), std: std.map(round), weights: w.slice(0, d).map(round), bias: round(w[d]) };
}
