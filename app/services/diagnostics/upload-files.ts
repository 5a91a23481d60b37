// /test-upload (issue 5 "upload an existing file … from /test-upload"): what the page accepts,
// checked in the browser before anything is sent; the server checks again (upload.server.ts).

/** Issue 5: wav, mp3, m4a, webm, ogg; up to 500 MB (the server's MAX_AUDIO_FILE_BYTES). */
export const DIAGNOSTIC_MAX_BYTES = 500 * 1024 * 1024;

/** The Content-Type sent for each extension: browsers label some audio files video/* or leave the type empty. */
export const DIAGNOSTIC_AUDIO_TYPES = {
  wav: "audio/wav",
  mp3: "audio/mpeg",
  m4a: "audio/mp4",
  webm: "audio/webm",
  ogg: "audio/ogg",
} as const;

export type DiagnosticFileProblem = "type" | "size" | "empty";

export function diagnosticContentType(name: string): string | null {
  const ext = name.toLowerCase().split(".").pop() ?? "";
  return Object.hasOwn(DIAGNOSTIC_AUDIO_TYPES, ext) ? DIAGNOSTIC_AUDIO_TYPES[ext as keyof typeof DIAGNOSTIC_AUDIO_TYPES] : null;
}

export function diagnosticFileProblem(file: { name: string; size: number }): DiagnosticFileProblem | null {
  if (!diagnosticContentType(file.name)) return "type";
  if (file.size === 0) return "empty";
  if (file.size > DIAGNOSTIC_MAX_BYTES) return "size";
  return null;
}

export const DIAGNOSTIC_ACCEPT = Object.keys(DIAGNOSTIC_AUDIO_TYPES)
  .map((ext) => `.${ext}`)
  .join(",");
