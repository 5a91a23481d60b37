import http from "node:http";
import { wavHeader } from "#app/services/speech/wav.server.ts";

// One fake OpenAI-compatible server for the speech and note engines, shared by the server tests
// that start a real production server (shutdown, backup under load, kill -9): the test decides
// when a job is "in the middle" by holding the engine's request.

export const TRANSCRIPT = "Bleeding on probing. Lower left molar.";

/** One fake OpenAI-compatible server for both engines: `hold` keeps requests open until the caller goes away. */
export async function startFakeEngines() {
  const state = {
    asr: "answer" as "hold" | "answer",
    chat: "answer" as "hold" | "answer",
    asrCalls: 0,
    chatCalls: 0,
    abandoned: 0,
  };
  // Held requests: release() answers them (a test that kills one of two processes lets the survivor's call finish).
  const held: { kind: "asr" | "chat"; answer: () => void }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const kind = req.url?.endsWith("/audio/transcriptions") ? "asr" : req.url?.endsWith("/chat/completions") ? "chat" : null;
      if (!kind) {
        res.writeHead(404).end();
        return;
      }
      if (kind === "asr") state.asrCalls += 1;
      else state.chatCalls += 1;
      const answer = () => {
        if (res.destroyed || res.writableEnded) return;
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answerBody(kind)));
      };
      if (state[kind] === "hold") {
        res.once("close", () => {
          if (!res.writableEnded) state.abandoned += 1;
        });
        held.push({ kind, answer });
        return;
      }
      answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no address");
  return {
    state,
    /** Answers every request of `kind` held so far (those whose caller went away are skipped). */
    release(kind: "asr" | "chat"): void {
      const answering = held.filter((h) => h.kind === kind);
      const keeping = held.filter((h) => h.kind !== kind);
      held.splice(0, held.length, ...keeping);
      for (const request of answering) request.answer();
    },
    url: `http://127.0.0.1:${address.port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

function answerBody(kind: "asr" | "chat") {
  return kind === "asr"
    ? { text: TRANSCRIPT, duration: 2, segments: [{ start: 0, end: 2, text: TRANSCRIPT }] }
    : {
        id: "chatcmpl-fake",
        object: "chat.completion",
        created: 1_767_225_600,
        model: "fake",
        choices: [
          { index: 0, message: { role: "assistant", content: JSON.stringify({ sentences: [] }) }, finish_reason: "stop" },
        ],
      };
}

/** Two seconds of a tone, 16 kHz mono: real audio for ffmpeg, which the server runs before the engine. */
export function toneWav(): Uint8Array<ArrayBuffer> {
  const samples = 32_000;
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i += 1) data.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 16000)), i * 2);
  return Uint8Array.from(Buffer.concat([wavHeader(data.length, 16000), data]));
}
