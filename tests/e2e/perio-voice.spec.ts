import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { signUpAndConfirm, uniqueEmail } from "./auth-helpers.ts";
import { fakeMicrophoneLaunchOptions } from "./fake-microphone.ts";
import { collectPageErrors, waitForHydration } from "./helpers.ts";
import { DIGITS_DIR, writeTripletsWav } from "./perio-voice-audio.ts";

// Issue 14 "Proof": Chromium's fake microphone plays a real speaker's chained site triplets
// ("three two three", "two five three", "two one two"); voice mode recognises them in the browser
// (SoundSwallower, no audio sent) and the chart fills the sites along the path. The hands-free
// polish is checked on the way: the "heard → where" line, a beep and a cell flash per accepted
// value, the exam locked while listening, and microphone loss. Needs the shared digit recordings
// (read at test time only).
// Digits this speaker's take is recognised right on this machine: recognition accuracy is measured by
// bench/perio-voice, not here (his "four" of take 0 came out as "twelve" in two runs out of three).
const TRIPLETS = [
  [3, 2, 3],
  [2, 5, 3],
  [2, 1, 2],
];
const wav = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "murmur-perio-mic-")), "triplets.wav");
const haveDigits = fs.existsSync(DIGITS_DIR);
if (haveDigits) writeTripletsWav(wav, TRIPLETS, "lucas", 0);

test.use({
  permissions: ["microphone"],
  launchOptions: fakeMicrophoneLaunchOptions(wav, { loop: false }),
});

test("voice mode: chained spoken triplets fill the sites along the path, confirmed by sound and sight", async ({ page }) => {
  test.skip(!haveDigits, `no digit recordings at ${DIGITS_DIR}`);
  test.setTimeout(90_000);
  const errors = collectPageErrors(page);
  // Count the confirmation beeps (oscillators started on the voice mode's AudioContext) and keep the
  // microphone streams, so the test can pull the microphone out later.
  await page.addInitScript(() => {
    const w = window as unknown as { __beeps: number; __streams: MediaStream[] };
    w.__beeps = 0;
    w.__streams = [];
    const createOscillator = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function (this: AudioContext) {
      w.__beeps++;
      return createOscillator.call(this);
    };
    const getUserMedia = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    navigator.mediaDevices.getUserMedia = async (constraints) => {
      const stream = await getUserMedia(constraints);
      w.__streams.push(stream);
      return stream;
    };
  });
  await signUpAndConfirm(page, uniqueEmail("perio-voice"));
  const created = await page.request.post("/api/patients", { data: { display_name: "Perio Voice" } });
  const { id } = (await created.json()) as { id: string };
  // An older exam to switch to (the lock must ask first).
  const older = await page.request.post(`/api/patients/${id}/perio-exams`, { data: { exam_date: "2025-01-15" } });
  expect(older.status()).toBe(201);
  await page.goto(`/periodontal-chart?patient_id=${id}`);
  await waitForHydration(page);
  await page.getByTestId("perio-new-exam").click();
  await expect(page).toHaveURL(/exam=/);
  const examUrl = page.url();
  await waitForHydration(page);
  await page.getByTestId("numbering-universal").click();
  await expect(page.getByTestId("perio-voice-beep")).toBeChecked();
  // Model loading happens on the page: only the model files are fetched, no audio is sent.
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() !== "GET" && !r.url().includes("/api/perio-exams/")) posts.push(r.url());
  });
  await page.getByTestId("perio-voice-toggle").click();
  await expect(page.getByTestId("perio-voice-lock")).toBeVisible({ timeout: 20_000 });

  // First triplet: tooth 1, and the live line says what was heard and where it went.
  await expect(page.getByTestId("cell-1-DB-pd")).toHaveText("3", { timeout: 20_000 });
  await expect(page.getByTestId("cell-1-B-pd")).toHaveText("2");
  await expect(page.getByTestId("cell-1-MB-pd")).toHaveText("3");
  // Then the next two triplets along the path: teeth 2 and 3.
  await expect(page.getByTestId("cell-3-MB-pd")).toHaveText("2", { timeout: 20_000 });
  for (const [tooth, values] of [
    [2, TRIPLETS[1]],
    [3, TRIPLETS[2]],
  ] as const) {
    await expect(page.getByTestId(`cell-${tooth}-DB-pd`)).toHaveText(String(values?.[0]));
    await expect(page.getByTestId(`cell-${tooth}-B-pd`)).toHaveText(String(values?.[1]));
    await expect(page.getByTestId(`cell-${tooth}-MB-pd`)).toHaveText(String(values?.[2]));
  }
  const heard = page.getByTestId("perio-voice-heard");
  await expect(heard).toHaveAttribute("data-accepted", "true");
  await expect(heard).toContainText("“two one two” → 3 DB PD 2 · 3 B PD 1 · 3 MB PD 2");
  await expect(heard).toHaveAttribute("aria-live", "polite");
  // The cells of the last accepted triplet flash; earlier ones no longer do.
  await expect(page.getByTestId("cell-3-B-pd")).toHaveAttribute("data-flash", /^[ab]$/);
  await expect(page.getByTestId("cell-1-B-pd")).not.toHaveAttribute("data-flash", /.+/);
  // One beep per accepted utterance (three triplets), none for anything else.
  expect(await page.evaluate(() => (window as unknown as { __beeps: number }).__beeps)).toBe(3);
  await expect(page.getByTestId("perio-cursor")).toContainText("tooth 4 DB");
  await expect(page.getByTestId("perio-save-state")).toHaveText("Saved");

  // Locked to this exam: switching to the older exam asks first; "Stay" keeps the exam and voice on.
  await page.getByTestId("perio-exams").getByRole("link").filter({ hasText: "2025" }).click();
  await expect(page.getByTestId("perio-voice-leave")).toBeVisible();
  await page.getByRole("button", { name: "Stay on this exam" }).click();
  await expect(page.getByTestId("perio-voice-leave")).toBeHidden();
  expect(page.url()).toBe(examUrl);
  await expect(page.getByTestId("perio-voice")).toHaveAttribute("data-state", "listening");

  // The microphone goes away (the track ends; the browser reports a device change): voice mode stops and says so.
  await page.evaluate(() => {
    const w = window as unknown as { __streams: MediaStream[] };
    for (const s of w.__streams) for (const track of s.getAudioTracks()) track.stop();
    navigator.mediaDevices.dispatchEvent(new Event("devicechange"));
  });
  await expect(page.getByTestId("perio-voice")).toHaveAttribute("data-state", "error");
  await expect(page.getByTestId("perio-voice-status")).toContainText("The microphone stopped: voice charting is off.");
  // Off again: the exam is no longer locked.
  await page.getByTestId("perio-exams").getByRole("link").filter({ hasText: "2025" }).click();
  await expect(page).not.toHaveURL(examUrl);
  await expect(page.getByTestId("perio-voice-leave")).toHaveCount(0);

  expect(posts).toEqual([]);
  // SoundSwallower probes for an optional feature transform these models do not have (a 404 it expects).
  expect(errors.filter((e) => !e.includes("/perio-voice/model/en-us/feature_transform"))).toEqual([]);
});

test("voice mode: the beep can be turned off, and the choice is kept on this device", async ({ page }) => {
  await signUpAndConfirm(page, uniqueEmail("perio-beep"));
  const created = await page.request.post("/api/patients", { data: { display_name: "Perio Beep" } });
  const { id } = (await created.json()) as { id: string };
  await page.request.post(`/api/patients/${id}/perio-exams`, { data: {} });
  await page.goto(`/periodontal-chart?patient_id=${id}`);
  await waitForHydration(page);
  await page.getByTestId("perio-voice-beep").uncheck();
  await page.reload();
  await waitForHydration(page);
  await expect(page.getByTestId("perio-voice-beep")).not.toBeChecked();
});
