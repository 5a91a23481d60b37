import { HttpResponse, http } from "msw";

/**
 * A hosted OpenAI-compatible speech API (`POST /v1/audio/transcriptions`) for msw: every request is
 * recorded with its parsed multipart form, and each test says how the server answers the n-th
 * call. Shared by the engine's contract tests and any suite that needs a hosted engine.
 */
export const ASR_BASE_URL = "https://asr.murmur.test";

export interface AsrRequest {
  method: string;
  path: string;
  headers: Headers;
  form: FormData | null;
  at: number;
}

export type AsrAnswer = (call: number, request: Request) => Response | Promise<Response>;

/** A verbose_json reply as OpenAI documents it, with the extra fields real servers add. */
export const verboseReply = {
  task: "transcribe",
  language: "english",
  duration: 4.2,
  text: " Bleeding on probing. Lower left molar.",
  segments: [
    { id: 0, seek: 0, start: 0, end: 1.8, text: " Bleeding on probing.", tokens: [1, 2], temperature: 0, avg_logprob: -0.2 },
    { id: 1, seek: 0, start: 2.1, end: 4.2, text: " Lower left molar.", tokens: [3], temperature: 0, avg_logprob: -0.3 },
  ],
};

export function createOpenAiAsrMock(baseUrl = ASR_BASE_URL) {
  const requests: AsrRequest[] = [];
  let answer: AsrAnswer = () => HttpResponse.json(verboseReply);

  const handler = http.post(`${baseUrl}/v1/audio/transcriptions`, async ({ request }) => {
    const contentType = request.headers.get("content-type") ?? "";
    const form = contentType.startsWith("multipart/form-data") ? await request.clone().formData() : null;
    requests.push({
      method: request.method,
      path: new URL(request.url).pathname,
      headers: new Headers(request.headers),
      form,
      at: Date.now(),
    });
    return answer(requests.length, request);
  });

  return {
    handler,
    requests,
    /** How the server answers from now on; `call` counts from 1. */
    answer(next: AsrAnswer) {
      answer = next;
    },
    reset() {
      requests.length = 0;
      answer = () => HttpResponse.json(verboseReply);
    },
  };
}
