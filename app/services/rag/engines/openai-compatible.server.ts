import { z } from "zod";
import { chatCompletionsUrl } from "#app/services/notes/engines/openai-compatible/chat-client.server.ts";
import { questionLanguage } from "../answer/intent.ts";
import { answerPhrases } from "../phrases.server.ts";
import { extractiveAnswer } from "./extractive.ts";
import type { AnswerEngine, AnswerInput, AnswerOutput } from "./types.ts";

// The OpenAI-compatible answerer (issue 12 "Answers"): a grounded prompt with numbered sources;
// the model answers only from them and cites them as [n]. Its reply is checked before anyone
// reads it — it must cite a source that exists, and every number in it must appear in the
// sources — and any failure (network, timeout, HTTP error, a reply that breaks those rules) gives
// the extractive answer with usedFallback true (SPEC §8 "Fallback notice").

export interface OpenAiAnswererConfig {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

const LANGUAGE_NAMES = { en: "English", fr: "French", es: "Spanish" } as const;

/** 0055's order of authority, as the model reads it beside each source (issue 28). */
const AUTHORITY_NAMES = [
  "coding case",
  "transcript (recording)",
  "generated draft note",
  "draft note section edited by the clinician",
  "signed note",
] as const;

function sourceKind(p: AnswerInput["passages"][number]): string {
  if (p.table === "help") return "help article";
  const kind = p.noteStatus === "amended" ? "amended note" : (AUTHORITY_NAMES[p.authority] ?? p.table);
  const section = p.table === "doctor_notes" && p.label ? `, section "${p.label}"` : "";
  return `${kind}${section}${p.signedAt ? `, signed ${p.signedAt.slice(0, 10)}` : ""}`;
}

const ReplySchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullish() }) })).min(1),
});

export function groundedPrompt(input: AnswerInput): { role: "system" | "user"; content: string }[] {
  const phrases = answerPhrases(input.language);
  const none = input.scope === "help" ? phrases.helpUnknown : phrases.notInRecords;
  const system = [
    input.scope === "help"
      ? "You answer questions about the Murmur product using ONLY the numbered help articles below."
      : "You answer a clinician's question about patient records using ONLY the numbered sources below.",
    "Every sentence of your answer must end with the number of the source it comes from in square brackets, like [2].",
    "Never add a fact, number, dose, date or drug name that is not written in a source.",
    `If the sources do not answer the question, reply exactly: ${none}`,
    ...(input.scope === "records"
      ? [
          "Sources are ranked; when they disagree, follow the higher authority: signed or amended note > draft section edited by the clinician > generated draft note > transcript > coding case, and say in a few words that the lower source said otherwise.",
          "Write about the patient in the third person (the patient's name or 'the patient'), not 'I' or 'you'.",
        ]
      : []),
    `Answer briefly, in ${LANGUAGE_NAMES[input.scope === "help" ? input.language : questionLanguage(input.question, input.language)]}.`,
  ].join("\n");
  // The section the question names is read whole (ask.server.ts withSections), once per note section.
  const shown = new Set<string>();
  const sources = input.passages
    .map((p, i) => {
      const whole = p.section?.length && !shown.has(`${p.sourceId} ${p.field}`) ? p.section.join(" ") : p.text;
      if (p.section?.length) shown.add(`${p.sourceId} ${p.field}`);
      return `[${i + 1}] (${p.date}${p.visitName ? `, ${p.visitName}` : ""}, ${sourceKind(p)}) ${whole}`;
    })
    .join("\n");
  return [
    { role: "system", content: system },
    { role: "user", content: `Sources:\n${sources}\n\nQuestion: ${input.question}` },
  ];
}

/** Why a reply cannot be shown, or null when it keeps to the sources. */
export function replyProblem(reply: string, input: AnswerInput): string | null {
  const phrases = answerPhrases(input.language);
  const none = input.scope === "help" ? phrases.helpUnknown : phrases.notInRecords;
  if (reply.trim() === "") return "empty reply";
  if (reply.includes(none)) return null;
  const markers = [...reply.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
  if (markers.length === 0) return "no citation";
  if (markers.some((n) => n < 1 || n > input.passages.length)) return "cites a source that does not exist";
  const sourceText = input.passages.map((p) => [p.text, ...(p.section ?? [])].join(" ")).join(" ");
  const numbers = reply.replace(/\[\d+\]/g, " ").match(/\d+(?:[.,]\d+)?/g) ?? [];
  const missing = numbers.find((n) => !sourceText.includes(n));
  return missing ? `number ${missing} is in no source` : null;
}

export function createOpenAiCompatibleAnswerer(config: OpenAiAnswererConfig): AnswerEngine {
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  return {
    id: "openai-compatible",
    async answer(input): Promise<AnswerOutput> {
      if (input.passages.length === 0) return extractiveAnswer(input);
      try {
        const timeout = AbortSignal.timeout(config.timeoutMs);
        // Looked up per call: a test's interceptor (msw) replaces the global after start-up.
        const response = await (config.fetch ?? globalThis.fetch)(chatCompletionsUrl(config.baseUrl), {
          method: "POST",
          headers,
          body: JSON.stringify({ model: config.model, temperature: 0, messages: groundedPrompt(input) }),
          signal: input.signal ? AbortSignal.any([input.signal, timeout]) : timeout,
        });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const reply = ReplySchema.parse(await response.json()).choices[0]?.message.content?.trim() ?? "";
        const problem = replyProblem(reply, input);
        if (problem) throw new Error(problem);
        const phrases = answerPhrases(input.language);
        const unanswered = reply.includes(input.scope === "help" ? phrases.helpUnknown : phrases.notInRecords);
        if (unanswered && input.scope === "help") {
          return { answer: `${phrases.helpUnknown}\n${phrases.helpTry}`, usedFallback: false, unanswered };
        }
        return { answer: unanswered ? phrases.notInRecords : reply, usedFallback: false, unanswered };
      } catch {
        return { ...extractiveAnswer(input), usedFallback: true };
      }
    },
  };
}
