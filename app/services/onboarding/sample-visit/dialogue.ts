// The sample visit's dialogue (dialogue.en.txt): read by the build script that renders it and by the
// tests that check the pipeline's transcript against it. Never needed by the running app, which
// only streams the rendered audio.

export type SampleSpeaker = "clinician" | "patient";

export interface SampleTurn {
  speaker: SampleSpeaker;
  text: string;
}

/** "speaker: words" lines; blank lines and # comments are skipped, anything else is an error. */
export function parseDialogue(source: string): SampleTurn[] {
  const turns: SampleTurn[] = [];
  for (const [index, raw] of source.split("\n").entries()) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const match = /^(clinician|patient):\s*(.+)$/.exec(line);
    if (!match?.[1] || !match[2]) throw new Error(`dialogue line ${index + 1}: expected "clinician:" or "patient:"`);
    turns.push({ speaker: match[1] as SampleSpeaker, text: match[2].trim() });
  }
  return turns;
}
