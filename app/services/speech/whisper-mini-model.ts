import { seededRandom } from "#app/utils/seeded-random.ts";
/**
 * Writes a miniature whisper.cpp GGML model: the real file layout (magic, hyper-parameters, mel
 * filters, vocabulary, named tensors in whisper.cpp's order and types) with tiny dimensions and
 * seeded random weights. It loads and decodes in the real whisper.cpp and transcribes nonsense —
 * no model weights exist on the build machines, so tests exercise the real loading and decoding
 * path with this (scripts/make-mini-whisper-model.ts, ADR 0029). Layout: whisper.cpp
 * src/whisper.cpp whisper_model_load().
 */

export const GGML_MAGIC = 0x67676d6c;

export interface MiniModelOptions {
  seed?: number;
  /** Multilingual vocabulary size (51865) instead of English-only (51864). */
  multilingual?: boolean;
  /** Width of every layer; whisper.cpp needs audio and text widths equal. */
  state?: number;
  heads?: number;
  layers?: number;
}

const SYLLABLES = ["ka", "lo", "mi", "su", "te", "ra", "no", "vi", "de", "po", "shi", "an", "el", "or", "um", "ix"];

class Writer {
  private chunks: Uint8Array[] = [];
  size = 0;
  private push(bytes: Uint8Array) {
    this.chunks.push(bytes);
    this.size += bytes.length;
  }
  i32(...values: number[]) {
    const b = new Uint8Array(4 * values.length);
    const view = new DataView(b.buffer);
    for (const [i, v] of values.entries()) view.setInt32(4 * i, v, true);
    this.push(b);
  }
  bytes(b: Uint8Array) {
    this.push(b);
  }
  f32(values: Float32Array) {
    this.push(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
  }
  f16(values: Float32Array) {
    const half = new Float16Array(values);
    this.push(new Uint8Array(half.buffer));
  }
  result(): Uint8Array {
    const out = new Uint8Array(this.size);
    let offset = 0;
    for (const c of this.chunks) {
      out.set(c, offset);
      offset += c.length;
    }
    return out;
  }
}

export function makeMiniWhisperModel(options: MiniModelOptions = {}): Uint8Array {
  const random = seededRandom(options.seed ?? 1);
  const state = options.state ?? 32;
  const heads = options.heads ?? 2;
  const layers = options.layers ?? 1;
  const nVocab = options.multilingual ? 51865 : 51864;
  // 1500 audio positions = 30 s of mel frames after the stride-2 convolution: whisper.cpp always
  // encodes 30 s windows, so this dimension cannot shrink; the others can.
  const audioCtx = 1500;
  const textCtx = 448;
  const nMels = 80;
  const ftype = 1; // F16 matrices, F32 biases and norms, as the published models
  const w = new Writer();
  w.i32(GGML_MAGIC, nVocab, audioCtx, state, heads, layers, textCtx, state, heads, layers, nMels, ftype);

  // Mel filter bank (80 × 201 FFT bins): simple non-overlapping bands; only the shape matters here.
  const nFft = 201;
  const filters = new Float32Array(nMels * nFft);
  for (let m = 0; m < nMels; m++) {
    for (let f = Math.floor((m * nFft) / nMels); f < Math.floor(((m + 1) * nFft) / nMels); f++) filters[m * nFft + f] = 1;
  }
  w.i32(nMels, nFft);
  w.f32(filters);

  // Text tokens: every id below end-of-text gets a short pseudo-word so decoded nonsense reads as
  // words; whisper.cpp names the special tokens above it itself.
  const textTokens = options.multilingual ? 50257 : 50256;
  const encoder = new TextEncoder();
  w.i32(textTokens);
  for (let id = 0; id < textTokens; id++) {
    let word: string;
    // whisper.cpp looks up " " by text (it suppresses a blank first token), as GPT-2's id 220;
    // printable ASCII keeps GPT-2's byte-token ids so punctuation exists too.
    if (id === 220) word = " ";
    else if (id >= 33 && id <= 126) word = String.fromCharCode(id);
    else {
      word = id % 2 === 0 ? " " : "";
      for (let k = 0; k < 1 + (id % 3); k++) word += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    }
    const bytes = options.multilingual && id === 50256 ? new Uint8Array() : encoder.encode(word);
    w.i32(bytes.length);
    w.bytes(bytes);
  }

  const tensor = (name: string, ne: number[], type: "f32" | "f16", fill: "random" | "one" | "zero") => {
    const count = ne.reduce((a, b) => a * b, 1);
    const data = new Float32Array(count);
    if (fill === "one") data.fill(1);
    else if (fill === "random") for (let i = 0; i < count; i++) data[i] = (random() * 2 - 1) * 0.2;
    const nameBytes = encoder.encode(name);
    w.i32(ne.length, nameBytes.length, type === "f32" ? 0 : 1, ...ne);
    w.bytes(nameBytes);
    if (type === "f32") w.f32(data);
    else w.f16(data);
  };
  const norm = (prefix: string, n: number) => {
    tensor(`${prefix}.weight`, [n], "f32", "one");
    tensor(`${prefix}.bias`, [n], "f32", "zero");
  };
  const linear = (prefix: string, nIn: number, nOut: number, bias = true) => {
    tensor(`${prefix}.weight`, [nIn, nOut], "f16", "random");
    if (bias) tensor(`${prefix}.bias`, [nOut], "f32", "random");
  };
  const attention = (prefix: string) => {
    linear(`${prefix}.query`, state, state);
    linear(`${prefix}.key`, state, state, false);
    linear(`${prefix}.value`, state, state);
    linear(`${prefix}.out`, state, state);
  };
  const mlp = (prefix: string) => {
    norm(`${prefix}.mlp_ln`, state);
    linear(`${prefix}.mlp.0`, state, 4 * state);
    linear(`${prefix}.mlp.2`, 4 * state, state);
  };

  tensor("encoder.positional_embedding", [state, audioCtx], "f32", "random");
  tensor("encoder.conv1.weight", [3, nMels, state], "f16", "random");
  tensor("encoder.conv1.bias", [1, state], "f32", "random");
  tensor("encoder.conv2.weight", [3, state, state], "f16", "random");
  tensor("encoder.conv2.bias", [1, state], "f32", "random");
  norm("encoder.ln_post", state);
  for (let i = 0; i < layers; i++) {
    mlp(`encoder.blocks.${i}`);
    norm(`encoder.blocks.${i}.attn_ln`, state);
    attention(`encoder.blocks.${i}.attn`);
  }
  tensor("decoder.positional_embedding", [state, textCtx], "f32", "random");
  tensor("decoder.token_embedding.weight", [state, nVocab], "f16", "random");
  norm("decoder.ln", state);
  for (let i = 0; i < layers; i++) {
    mlp(`decoder.blocks.${i}`);
    norm(`decoder.blocks.${i}.attn_ln`, state);
    attention(`decoder.blocks.${i}.attn`);
    norm(`decoder.blocks.${i}.cross_attn_ln`, state);
    attention(`decoder.blocks.${i}.cross_attn`);
  }
  return w.result();
}
