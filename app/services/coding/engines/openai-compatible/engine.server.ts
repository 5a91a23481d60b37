import { z } from "zod";
import type { CodeTable } from "../../codes/table.ts";
import type { SuggestInput, Suggestion, SuggestionEngine } from "../../model.ts";
import { validateSuggestions } from "../../validate.ts";

export interface OpenAiCodingConfig {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

const ReplySchema = z.object({
  suggestions: z
    .array(
      z.object({
        code: z.string(),
        confidence: z.number().optional(),
        quote: z.string(),
        rationale: z.string().optional(),
      }),
    )
    .max(100),
});

export class CodingEngineError extends Error {
  override name = "CodingEngineError";
}

function prompt(input: SuggestInput): string {
  return [
    "You are a certified outpatient medical coder. Propose ICD-10-CM diagnosis codes for the clinical text.",
    "Rules: code only confirmed conditions (not negated, not 'possible', 'probable' or 'rule out': code their symptoms instead);",
    "history-of conditions get their personal history Z codes; take laterality and episode of care from the text.",
    "Put the visit's main reason first. For each code give the exact words of the text that justify it as `quote`.",
    'Answer JSON only: {"suggestions":[{"code":"E11.65","confidence":0.9,"quote":"...","rationale":"..."}]}',
  ].join("\n");
}

/**
 * A chat-completions server as coding engine. Its reply is never trusted: codes, titles and
 * evidence go through validateSuggestions against the shipped tables (an invented or header code
 * is dropped, a quote must be found in the text).
 */
export function createOpenAiCodingEngine(config: OpenAiCodingConfig, table: CodeTable): SuggestionEngine {
  const doFetch = config.fetch ?? fetch;
  return {
    id: "openai-compatible",
    async suggest(input, signal): Promise<Suggestion[]> {
      if (!input.systems.includes("icd10cm")) return [];
      const text = input.sources.map((s) => s.text).join("\n\n");
      const timeout = AbortSignal.timeout(config.timeoutMs);
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
      let reply: Response;
      try {
        reply = await doFetch(`${config.baseUrl.replace(/\/+$/, "")}/chat/completions`, {
          method: "POST",
          headers,
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
          body: JSON.stringify({
            model: config.model,
            temperature: 0,
            response_format: { type: "json_object" },
            messages: [
              { role: "system", content: prompt(input) },
              { role: "user", content: text },
            ],
          }),
        });
      } catch (error) {
        throw new CodingEngineError(error instanceof Error ? error.message : "network error");
      }
      if (!reply.ok) throw new CodingEngineError(`HTTP ${reply.status}`);
      const content = ((await reply.json()) as { choices?: Array<{ message?: { content?: string } }> }).choices?.[0]?.message
        ?.content;
      let parsed: z.infer<typeof ReplySchema>;
      try {
        parsed = ReplySchema.parse(JSON.parse(content ?? ""));
      } catch {
        throw new CodingEngineError("the model's reply is not the expected JSON");
      }
      return validateSuggestions(
        parsed.suggestions.map((s) => ({
          code: s.code,
          confidence: s.confidence,
          rationale: s.rationale ?? "",
          evidence: [{ source: input.sources[0]?.source ?? "text", start: -1, end: -1, quote: s.quote }],
        })),
        table,
        input.sources,
      );
    },
  };
}
