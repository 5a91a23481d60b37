import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { signUpAndConfirm, uniqueEmail } from "./auth-helpers.ts";
import { fakeMicrophoneLaunchOptions } from "./fake-microphone.ts";

// Issue 5 "Proof" (first part): Chromium's fake microphone plays real synthesised speech into the
// real recorder, through the chunk upload, assembly, the transcription job and pocketsphinx.
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

test("start a visit with consent, record real speech, stop → the transcript appears; play, edit, re-run", async ({ page }) => {
  test.setTimeout(180_000);
  // Progress reaches the page over server-sent events (no polling): every stream it opens is counted.
  const streams: string[] = [];
  page.on("request", (request) => {
    if (/\/api\/visits\/[0-9a-f-]{36}\/events\?org_id=/.test(request.url())) streams.push(request.url());
  });
  await signUpAndConfirm(page, uniqueEmail("recorder"));
  await page.goto("/transcribing");
  await page.locator('input[name="new_patient_name"]').fill("Jean Dupont");
  await page.locator('input[name="title"]').fill("Chest pain");
  await page.locator('input[name="consent"]').check();
  await page.getByTestId("start-visit").locator('button[type="submit"]').click();
  await expect(page).toHaveURL(/\/transcribing\?visit_id=[0-9a-f-]{36}$/);
  const visitId = new URL(page.url()).searchParams.get("visit_id");

  // The recorder prepares its encryption key and IndexedDB first: slow on a loaded machine.
  await expect(page.getByTestId("recorder-start")).toBeEnabled({ timeout: 45_000 });
  await page.getByTestId("recorder-start").click();
  await expect(page.getByTestId("recorder-stop")).toBeEnabled();
  await page.waitForTimeout(12_000);
  await page.getByTestId("recorder-stop").click();

  await expect(page.getByTestId("visit-progress")).toBeVisible({ timeout: 15_000 });
  // Issue 29: once transcribed, no Generate pressed — the note is drafted and the visit page opens
  // on it (the page may go there straight from "transcribing"); the transcript view stays one link away.
  await expect(page).toHaveURL(/\/coding\?id=[0-9a-f-]{36}$/, { timeout: 90_000 });
  expect(streams.length).toBeGreaterThan(0);
  await page.goto(`/transcribing?visit_id=${visitId}&transcript=1`);
  await expect(page.getByTestId("visit-progress")).toHaveCount(0);
  await expect(page.getByTestId("transcript")).toContainText(/pain|pressure|patient|blood|reports/i);
  const visit = (await (await page.request.get(`/api/visits/${visitId}`)).json()) as {
    status: string;
    audio: { chunk_count: number };
    transcription: { engine: string; segments: { start: number; end: number }[] };
  };
  expect(visit.status).toBe("transcribed");
  expect(visit.audio.chunk_count).toBeGreaterThanOrEqual(3);
  expect(visit.transcription.engine).toBe("pocketsphinx");
  expect(visit.transcription.segments.length).toBeGreaterThan(0);

  // Click-to-seek: a segment's timestamp moves the player there and plays.
  const audio = page.getByTestId("visit-audio");
  await expect(audio).toBeVisible();
  const starts = visit.transcription.segments.map((s) => s.start);
  const latest = Math.max(...starts);
  const seekTo = page.getByTestId("transcript-segments").locator(`li[data-start="${latest}"] [data-testid="segment-seek"]`);
  await seekTo.click();
  await expect
    .poll(() => audio.evaluate((el: HTMLAudioElement) => el.currentTime), { timeout: 10_000 })
    .toBeGreaterThanOrEqual(Math.max(0.01, latest - 0.25));

  // Edit and save → version 2, the engine's version 1 still viewable.
  await expect(page.getByTestId("transcript-version")).toHaveText(/1/);
  await page.getByTestId("transcript-edit").click();
  const first = page.getByTestId("segment-input").first();
  await first.fill("Edited by the clinician");
  await page.getByTestId("transcript-save").click();
  await expect(page.getByTestId("transcript")).toHaveAttribute("data-version", "2");
  await expect(page.getByTestId("transcript-version")).toHaveText(/2/);
  await expect(page.getByTestId("transcript-segments")).toContainText("Edited by the clinician");
  const original = page.getByTestId("transcript-original");
  await original.locator("summary").click();
  await expect(original).toContainText(/pain|pressure|patient|blood|reports/i);
  await expect(original).not.toContainText("Edited by the clinician");

  // Re-run: the progress bar comes back over the events stream, then engine version 3.
  const before = streams.length;
  await page.getByTestId("transcript-rerun").locator("button").click();
  await expect(page.getByTestId("visit-progress")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId("transcript")).toHaveAttribute("data-version", "3", { timeout: 60_000 });
  expect(streams.length).toBeGreaterThan(before);
  const rerun = (await (await page.request.get(`/api/visits/${visitId}`)).json()) as {
    transcription: { version: number; engine: string };
  };
  expect(rerun.transcription).toMatchObject({ version: 3, engine: "pocketsphinx" });
});
