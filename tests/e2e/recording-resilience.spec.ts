import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { signUpAndConfirm, uniqueEmail } from "./auth-helpers.ts";
import { fakeMicrophoneLaunchOptions } from "./fake-microphone.ts";

// Issue 5 "Proof": the fake microphone plays real speech while the network goes away for 10 s and
// the page reloads mid-recording; what the server assembled must be exactly the chunks the client
// produced. Also the fault test "a chunk whose sha256 does not match → 4xx and the client resends".
const speech = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "murmur-fake-mic-")), "visit.wav");
execFileSync("espeak-ng", [
  "-v",
  "en-us+klatt",
  "-s",
  "150",
  "-w",
  speech,
  "The patient reports chest pain and shortness of breath. Blood pressure is one hundred and forty over ninety. Continue lisinopril ten milligrams daily.",
]);

test.use({
  permissions: ["microphone"],
  launchOptions: fakeMicrophoneLaunchOptions(speech),
});

const CHUNK_PATH = /^\/api\/visits\/([0-9a-f-]{36})\/audio\/chunks\/(\d+)$/;
/** Every MediaRecorder run starts a new WebM stream with this EBML header. */
const EBML_MAGIC = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

interface ChunkAnswer {
  seq: number;
  status: number;
  /** Null when the page went away before the answer could be read. */
  body: { acknowledged?: boolean; sha256?: string; code?: string } | null;
}

/** What the client put on the wire for one visit, seen from the browser's network layer. */
interface ChunkLog {
  /** seq → the bytes of its first send; every resend must carry the same bytes. */
  bodies: Map<number, Buffer>;
  /** seq → its x-chunk-sha256 header. */
  claimed: Map<number, string>;
  /** seq → when it was first sent (Date.now()). */
  firstSentAt: Map<number, number>;
  sends: number;
  answers: ChunkAnswer[];
  /** Anything the client did wrong (a header that does not match, a resend with other bytes). */
  faults: string[];
  /** Waits for the answers still being read. */
  settled(): Promise<void>;
}

function chunkSeq(url: string): { visitId: string; seq: number } | null {
  const match = CHUNK_PATH.exec(new URL(url).pathname);
  return match?.[1] && match[2] ? { visitId: match[1], seq: Number(match[2]) } : null;
}

/** Records every chunk upload of the page (across reloads: the Page object outlives them). */
function watchChunkUploads(page: Page): ChunkLog {
  const reading: Promise<void>[] = [];
  const log: ChunkLog = {
    bodies: new Map(),
    claimed: new Map(),
    firstSentAt: new Map(),
    sends: 0,
    answers: [],
    faults: [],
    settled: async () => {
      await Promise.all(reading);
    },
  };
  page.on("request", (request) => {
    const chunk = request.method() === "PUT" ? chunkSeq(request.url()) : null;
    if (!chunk) return;
    const body = request.postDataBuffer() ?? Buffer.alloc(0);
    const claimed = request.headers()["x-chunk-sha256"] ?? "";
    log.sends++;
    if (sha256(body) !== claimed) log.faults.push(`seq ${chunk.seq}: x-chunk-sha256 ${claimed} is not the body's`);
    const first = log.bodies.get(chunk.seq);
    if (first && !first.equals(body)) log.faults.push(`seq ${chunk.seq}: resent with other bytes`);
    if (!first) {
      log.bodies.set(chunk.seq, body);
      log.claimed.set(chunk.seq, claimed);
      log.firstSentAt.set(chunk.seq, Date.now());
    }
  });
  page.on("response", (response) => {
    const chunk = response.request().method() === "PUT" ? chunkSeq(response.url()) : null;
    if (!chunk) return;
    reading.push(
      (async () => {
        let body: ChunkAnswer["body"] = null;
        try {
          body = (await response.json()) as ChunkAnswer["body"];
        } catch {
          // The page reloaded before the body was read: the status is still known.
        }
        log.answers.push({ seq: chunk.seq, status: response.status(), body });
      })(),
    );
  });
  return log;
}

interface VisitJson {
  status: string;
  audio: { source: string | null; chunk_count: number; bytes: number; sha256: string | null };
  transcription: { engine: string; text: string; segments: { start: number; end: number; text: string }[] } | null;
}

async function readVisit(page: Page, visitId: string): Promise<VisitJson> {
  const res = await page.request.get(`/api/visits/${visitId}`);
  expect(res.status()).toBe(200);
  return (await res.json()) as VisitJson;
}

async function startVisit(page: Page, tag: string): Promise<string> {
  await signUpAndConfirm(page, uniqueEmail(tag));
  await page.goto("/transcribing");
  await page.locator('input[name="new_patient_name"]').fill("Jean Dupont");
  await page.locator('input[name="title"]').fill("Chest pain");
  await page.locator('input[name="consent"]').check();
  await page.getByTestId("start-visit").locator('button[type="submit"]').click();
  await expect(page).toHaveURL(/\/transcribing\?visit_id=[0-9a-f-]{36}$/);
  return new URL(page.url()).searchParams.get("visit_id") ?? "";
}

function acknowledgedSeqs(log: ChunkLog): Set<number> {
  return new Set(log.answers.filter((answer) => answer.status === 200).map((answer) => answer.seq));
}

/**
 * The assembled audio is exactly the client's chunks: as many as the distinct seqs it sent (0..n-1),
 * every acknowledgement names the client's SHA-256, and the SHA-256 of the chunks' bytes joined in
 * seq order is the audio's SHA-256 the API reports.
 */
async function expectAssembledFromEveryChunk(page: Page, visitId: string, log: ChunkLog): Promise<VisitJson> {
  await log.settled();
  expect(log.faults).toEqual([]);
  const seqs = [...log.bodies.keys()].sort((a, b) => a - b);
  expect(seqs.length).toBeGreaterThanOrEqual(3);
  expect(seqs).toEqual(seqs.map((_, index) => index));
  expect([...acknowledgedSeqs(log)].sort((a, b) => a - b)).toEqual(seqs);
  for (const answer of log.answers) {
    if (answer.status !== 200 || !answer.body) continue;
    expect(answer.body.acknowledged, `seq ${answer.seq}`).toBe(true);
    expect(answer.body.sha256, `seq ${answer.seq}`).toBe(log.claimed.get(answer.seq));
  }
  const whole = Buffer.concat(seqs.map((seq) => log.bodies.get(seq) ?? Buffer.alloc(0)));
  const visit = await readVisit(page, visitId);
  expect(visit.audio.source).toBe("chunks");
  expect(visit.audio.chunk_count).toBe(seqs.length);
  expect(visit.audio.bytes).toBe(whole.byteLength);
  expect(visit.audio.sha256).toBe(sha256(whole));
  return visit;
}

async function expectTranscript(page: Page, visitId: string): Promise<void> {
  // Issue 29: once transcribed the note is drafted and the visit page opens on it; the transcript
  // view is the same page with `transcript=1`.
  await expect(page).toHaveURL(/\/coding\?id=[0-9a-f-]{36}$/, { timeout: 120_000 });
  await page.goto(`/transcribing?visit_id=${visitId}&transcript=1`);
  await expect(page.getByTestId("visit")).toHaveAttribute("data-status", "transcribed");
  await expect(page.getByTestId("transcript")).toContainText(/pain|pressure|patient|breath|blood|reports/i);
  const visit = await readVisit(page, visitId);
  expect(visit.status).toBe("transcribed");
  expect(visit.transcription?.segments.length ?? 0).toBeGreaterThan(0);
}

test("offline for 10 s and a reload mid-recording → the assembled audio is every chunk the client produced, and the transcript appears", async ({
  page,
  context,
}) => {
  test.setTimeout(300_000);
  const log = watchChunkUploads(page);
  const leavePrompts: string[] = [];
  page.on("dialog", (dialog) => {
    // Issue 5: leaving while audio is unsent asks first; the reload goes ahead.
    if (dialog.type() === "beforeunload") {
      leavePrompts.push(dialog.type());
      void dialog.accept();
    } else {
      void dialog.dismiss();
    }
  });
  const visitId = await startVisit(page, "resilience");

  await expect(page.getByTestId("recorder-start")).toBeEnabled({ timeout: 15_000 });
  await page.getByTestId("recorder-start").click();
  await expect(page.getByTestId("recorder-stop")).toBeEnabled();
  await expect.poll(() => acknowledgedSeqs(log).size, { timeout: 20_000 }).toBeGreaterThanOrEqual(1);

  await context.setOffline(true);
  const offlineAt = Date.now();
  const status = page.getByTestId("upload-status");
  await expect(status).toHaveAttribute("data-phase", "offline");
  await page.waitForTimeout(Math.max(0, 9_000 - (Date.now() - offlineAt)));
  // The recording went on while nothing could be sent: the chunks wait on this device.
  await expect(status).toHaveAttribute("data-phase", "offline");
  const waitingText = (await status.textContent()) ?? "";
  const waiting = Number(/(\d+) chunks? waiting/.exec(waitingText)?.[1] ?? 0);
  expect(waiting, waitingText).toBeGreaterThanOrEqual(2);
  await page.waitForTimeout(Math.max(0, 10_000 - (Date.now() - offlineAt)));
  await context.setOffline(false);
  const onlineAt = Date.now();

  // Reload right away: what the outage left unsent goes out from the reloaded page's recovery, or
  // was already acknowledged; either way it must be in the audio exactly once.
  await page.waitForTimeout(1_500);
  await page.reload();
  await expect(page.getByTestId("recorder-interrupted")).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId("recorder-finish")).toBeVisible();
  await expect(page.getByTestId("recorder-start")).toBeEnabled({ timeout: 15_000 });
  // Everything recorded before the reload is on the server before the recording goes on.
  await expect(status).toHaveAttribute("data-phase", "idle", { timeout: 30_000 });
  await expect(status).toContainText("All audio sent");
  const seqsBeforeContinue = log.bodies.size;
  await page.getByTestId("recorder-start").click();
  await expect(page.getByTestId("recorder-stop")).toBeEnabled();
  await expect.poll(() => log.bodies.size, { timeout: 20_000 }).toBeGreaterThan(seqsBeforeContinue + 1);
  await page.getByTestId("recorder-stop").click();

  await expect(page.getByTestId("visit")).not.toHaveAttribute("data-status", /^(draft|recording)$/, { timeout: 60_000 });
  // The chunks that waited through the outage went out once the connection was back (before or after the reload).
  const sentAfterOutage = [...log.firstSentAt].filter(([seq, at]) => seq < seqsBeforeContinue && at >= onlineAt);
  expect(sentAfterOutage.length).toBeGreaterThanOrEqual(waiting);
  const visit = await expectAssembledFromEveryChunk(page, visitId, log);
  // Two MediaRecorder runs (before and after the reload): two WebM streams, joined as sent.
  const streamStarts = [...log.bodies.entries()].filter(([, body]) => body.subarray(0, 4).equals(EBML_MAGIC));
  expect(streamStarts.map(([seq]) => seq)).toEqual([0, seqsBeforeContinue]);
  expect(visit.audio.chunk_count).toBeGreaterThan(seqsBeforeContinue);
  expect(leavePrompts).toEqual(["beforeunload"]);

  await expectTranscript(page, visitId);
});

test("a chunk damaged on the way → 422 chunk_checksum_mismatch, the client resends it, and the audio is complete", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const log = watchChunkUploads(page);
  const DAMAGED_SEQ = 1;
  let damaged = false;
  await page.route("**/api/visits/*/audio/chunks/*", async (route) => {
    const request = route.request();
    const chunk = chunkSeq(request.url());
    if (!damaged && request.method() === "PUT" && chunk?.seq === DAMAGED_SEQ) {
      damaged = true;
      const body = Buffer.from(request.postDataBuffer() ?? Buffer.alloc(0));
      const middle = body.byteLength >> 1;
      body[middle] = (body[middle] ?? 0) ^ 0xff;
      await route.continue({ postData: body });
      return;
    }
    await route.fallback();
  });
  const visitId = await startVisit(page, "damaged-chunk");

  await expect(page.getByTestId("recorder-start")).toBeEnabled({ timeout: 15_000 });
  await page.getByTestId("recorder-start").click();
  await expect(page.getByTestId("recorder-stop")).toBeEnabled();
  await expect.poll(() => acknowledgedSeqs(log).size, { timeout: 30_000 }).toBeGreaterThanOrEqual(4);
  await page.getByTestId("recorder-stop").click();
  await expect(page.getByTestId("visit")).not.toHaveAttribute("data-status", /^(draft|recording)$/, { timeout: 60_000 });

  await log.settled();
  expect(damaged).toBe(true);
  const answers = log.answers.filter((answer) => answer.seq === DAMAGED_SEQ);
  expect(answers[0]?.status).toBe(422);
  expect(answers[0]?.body?.code).toBe("chunk_checksum_mismatch");
  expect(answers.at(-1)?.status).toBe(200);
  expect(answers.at(-1)?.body?.sha256).toBe(log.claimed.get(DAMAGED_SEQ));
  await expectAssembledFromEveryChunk(page, visitId, log);
  await expectTranscript(page, visitId);
});
