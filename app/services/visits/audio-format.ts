// Issue 5 "upload an existing file (wav, mp3, m4a, webm, ogg)": recognised by their first bytes,
// so a mislabelled or garbage upload is refused at once with a clear code instead of failing
// later in the pipeline.

export const AUDIO_FORMATS = ["webm", "ogg", "wav", "mp3", "m4a", "flac"] as const;
export type AudioFormat = (typeof AUDIO_FORMATS)[number];

/**
 * The only types the audio file is ever served as, chosen by the server from the stored bytes
 * (never the uploader's label: a client-supplied type once let an HTML or script "recording" run
 * on Murmur's origin), with the extension of the served file name.
 */
export const AUDIO_FORMAT_TYPES: Readonly<Record<AudioFormat, { type: string; extension: string }>> = {
  webm: { type: "audio/webm", extension: "webm" },
  ogg: { type: "audio/ogg", extension: "ogg" },
  wav: { type: "audio/wav", extension: "wav" },
  mp3: { type: "audio/mpeg", extension: "mp3" },
  m4a: { type: "audio/mp4", extension: "m4a" },
  flac: { type: "audio/flac", extension: "flac" },
};

/** Bytes enough for every signature sniffAudioFormat knows (RIFF….WAVE needs 12). */
export const AUDIO_SNIFF_BYTES = 16;

const ascii = (head: Uint8Array, at: number, text: string) =>
  head.byteLength >= at + text.length && [...text].every((c, i) => head[at + i] === c.charCodeAt(0));

export function sniffAudioFormat(head: Uint8Array): AudioFormat | null {
  if (head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) return "webm";
  if (ascii(head, 0, "OggS")) return "ogg";
  if (ascii(head, 0, "RIFF") && ascii(head, 8, "WAVE")) return "wav";
  if (ascii(head, 0, "fLaC")) return "flac";
  if (ascii(head, 4, "ftyp")) return "m4a";
  if (ascii(head, 0, "ID3")) return "mp3";
  // An MPEG audio frame header: 11 sync bits, then a layer other than "reserved".
  if (head[0] === 0xff && head[1] !== undefined && (head[1] & 0xe0) === 0xe0 && (head[1] & 0x06) !== 0) return "mp3";
  return null;
}

/** `type/subtype`: one plain audio type, no wildcard, no list. */
const AUDIO_TYPE = /^audio\/[a-z0-9][a-z0-9.+-]{0,63}$/;
/** `name=value` or `name="value"`: simple values only (no comma, space, quote or backslash). */
const PARAMETER = /^([a-z0-9][a-z0-9._-]{0,31})=("?)([a-z0-9._+-]{1,64})\2$/;
const MAX_PARAMETERS = 4;

/**
 * A client-declared audio type (a Content-Type header, a manifest's `mime_type`) when it is exactly
 * one plain `audio/*` type with at most a few simple parameters, normalised
 * (`Audio/Ogg; Codecs="opus"` → `audio/ogg;codecs=opus`); anything else → null, refused by the caller.
 * A list (`audio/wav; x=1, text/html`: browsers honour the last type), control characters, quoted
 * strings with separators and wildcards never pass. Kept for the record only: what the file is
 * served as comes from its bytes (AUDIO_FORMAT_TYPES).
 */
export function plainAudioType(raw: string | null | undefined): string | null {
  if (typeof raw !== "string" || raw.length > 200) return null;
  const [essence = "", ...parameters] = raw.toLowerCase().split(";");
  const type = essence.trim();
  if (!AUDIO_TYPE.test(type) || parameters.length > MAX_PARAMETERS) return null;
  const normalised = [type];
  for (const parameter of parameters) {
    const match = PARAMETER.exec(parameter.trim());
    if (!match) return null;
    normalised.push(`${match[1]}=${match[3]}`);
  }
  return normalised.join(";");
}
