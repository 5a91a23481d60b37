// Issue 5 "upload an existing file (wav, mp3, m4a, webm, ogg)": recognised by their first bytes,
// so a mislabelled or garbage upload is refused at once with a clear code instead of failing
// later in the pipeline.

export const AUDIO_FORMATS = ["webm", "ogg", "wav", "mp3", "m4a", "flac"] as const;
export type AudioFormat = (typeof AUDIO_FORMATS)[number];

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
