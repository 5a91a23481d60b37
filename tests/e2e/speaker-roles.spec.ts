import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { signUpAndConfirm, uniqueEmail } from "./auth-helpers.ts";
import { waitForHydration } from "./helpers.ts";

// Issue 26 "who said what": a two-voice recording uploaded → the real pipeline (pocketsphinx,
// diarisation) → the transcript shows each segment's role; a user fixes one in French at 360 px,
// the fix persists as a new version, and the page is axe clean.
const TURNS: [voice: string, line: string][] = [
  ["en-us+klatt", "Good morning, what brings you in today?"],
  ["en-gb-x-rp+klatt4", "I have had a bad cough and a sore throat for a week."],
  ["en-us+klatt", "Have you had any fever or shortness of breath?"],
  ["en-gb-x-rp+klatt4", "Yes, I felt hot last night and I get tired on the stairs."],
  ["en-us+klatt", "I will listen to your chest and we will start some tablets."],
];

function dialogueWav(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "murmur-roles-"));
  const list: string[] = [];
  TURNS.forEach(([voice, line], i) => {
    const raw = path.join(dir, `turn-${i}.wav`);
    const padded = path.join(dir, `turn-${i}-16k.wav`);
    execFileSync("espeak-ng", ["-v", voice, "-s", "150", "-w", raw, line]);
    execFileSync("ffmpeg", [
      "-nostdin",
      "-loglevel",
      "error",
      "-y",
      "-i",
      raw,
      "-ac",
      "1",
      "-ar",
      "16000",
      "-af",
      "apad=pad_dur=0.6",
      padded,
    ]);
    list.push(`file '${padded}'`);
  });
  fs.writeFileSync(path.join(dir, "list.txt"), list.join("\n"));
  const out = path.join(dir, "visit.wav");
  execFileSync("ffmpeg", [
    "-nostdin",
    "-loglevel",
    "error",
    "-y",
    "-f",
    "concat",
    "-safe",
    "0",
    "-i",
    path.join(dir, "list.txt"),
    out,
  ]);
  return out;
}

test("an uploaded conversation shows who said what, and a fixed speaker stays fixed (French, 360 px)", async ({ page }) => {
  test.setTimeout(300_000);
  await signUpAndConfirm(page, uniqueEmail("roles"));
  await page.goto("/transcribing");
  await page.locator('input[name="new_patient_name"]').fill("Jeanne Roy");
  await page.locator('select[name="language"]').selectOption("en");
  await page.locator('input[name="consent"]').check();
  await page.getByTestId("start-visit").locator('button[type="submit"]').click();
  await expect(page).toHaveURL(/\/transcribing\?visit_id=[0-9a-f-]{36}$/);
  const visitId = new URL(page.url()).searchParams.get("visit_id") ?? "";
  const uploaded = await page.request.post(`/api/visits/${visitId}/audio`, {
    data: fs.readFileSync(dialogueWav()),
    headers: { "content-type": "audio/wav" },
  });
  expect(uploaded.status()).toBe(200);
  await expect
    .poll(async () => ((await (await page.request.get(`/api/visits/${visitId}`)).json()) as { status: string }).status, {
      timeout: 240_000,
    })
    .toBe("transcribed");
  const api = (await (await page.request.get(`/api/visits/${visitId}`)).json()) as {
    transcription: { version: number; segments: { speaker: string | null }[] };
  };
  const speakers = api.transcription.segments.map((s) => s.speaker);
  expect(speakers).toContain("clinician");
  expect(speakers).toContain("patient");

  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto(`/fr/transcribing?visit_id=${visitId}&transcript=1`);
  await waitForHydration(page);
  await expect(page.getByTestId("offline-engine-notice")).toContainText("Moteur hors ligne");
  const first = page.getByTestId("segment-speaker-select").first();
  await expect(first).toHaveAccessibleName(/Qui a dit le segment 1/);
  const before = await first.inputValue();
  const swapped = before === "clinician" ? "patient" : "clinician";
  await expect(first.locator("option", { hasText: swapped === "patient" ? "Patient" : "Clinicien" })).toHaveCount(1);
  await first.selectOption(swapped);
  await expect(page.getByTestId("transcript")).toHaveAttribute("data-version", String(api.transcription.version + 1));
  await page.screenshot({ path: "test-results/speaker-roles-fr-360.png", fullPage: true });
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);

  await page.reload();
  await waitForHydration(page);
  await expect(page.getByTestId("segment-speaker-select").first()).toHaveValue(swapped);
  await expect(page.getByTestId("segment-speaker").first()).toContainText("corrigé à la main");
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: "test-results/speaker-roles-fr-1280.png" });
});
