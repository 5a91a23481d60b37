import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { signUpAndConfirm, uniqueEmail } from "./auth-helpers.ts";
import { axeViolations } from "./axe.ts";
import { waitForHydration } from "./helpers.ts";

// Issue 28 "Proof": a clinician corrects the note's Allergies section, asks Ask Murmur, and the
// answer is the corrected text, cited to the note, saying the recording said otherwise — in
// French, at 360 px, axe clean with the drawer open. Screenshots to $SCREENSHOTS_DIR or
// <tmp>/murmur-ask-corrected/.

const SHOTS = path.resolve(process.env.SCREENSHOTS_DIR ?? path.join(os.tmpdir(), "murmur-ask-corrected"));

const DIALOGUE = [
  "[doctor] Bonjour, avez-vous des allergies aux médicaments ?",
  "[patient] Je suis allergique à tout ce qui contient des sulfamides, j'ai des plaques partout.",
  "[doctor] Vos poumons sont clairs.",
  "[doctor] Le plan est de commencer l'amoxicilline 500 mg trois fois par jour pendant sept jours.",
].join("\n");

test("a corrected section answers Ask Murmur, cited to the note, in French at 360 px", async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 360, height: 740 });
  await signUpAndConfirm(page, uniqueEmail("ask-corrected"));

  // A French visit with the dialogue as its transcript, and a note drafted from it.
  await page.goto("/fr/transcribing");
  await page.locator('input[name="new_patient_name"]').fill("Jeanne Martin");
  await page.locator('select[name="language"]').selectOption("fr");
  await page.locator('input[name="consent"]').check();
  await page.getByTestId("start-visit").locator('button[type="submit"]').click();
  await expect(page).toHaveURL(/\/transcribing\?visit_id=[0-9a-f-]{36}$/);
  const visitId = new URL(page.url()).searchParams.get("visit_id") ?? "";
  const imported = await page.request.post(`/api/visits/${visitId}/transcript`, { data: { text: DIALOGUE } });
  expect(imported.status()).toBe(201);
  await page.reload();
  await waitForHydration(page);
  const form = page.getByTestId("generate-note");
  await form.getByTestId("generate-template").selectOption("builtin:history_physical");
  await form.getByTestId("generate-submit").click();
  await expect(page).toHaveURL(/\/coding\?id=[0-9a-f-]{36}$/);
  await expect(page.getByTestId("note-editor")).toHaveAttribute("data-status", "draft", { timeout: 60_000 });
  await waitForHydration(page);
  const noteId = new URL(page.url()).searchParams.get("id") ?? "";

  // The clinician corrects the Allergies section and saves.
  const allergies = page.getByTestId("note-section-allergies").locator("textarea");
  await allergies.fill("Pénicilline (éruption cutanée).");
  await page.getByTestId("note-save").click();
  await expect(page.getByTestId("note-versions")).toBeAttached();

  // Ask Murmur, from the same page: the corrected text answers, cited to the note.
  await page.getByRole("button", { name: "Ouvrir Ask Murmur" }).click();
  const drawer = page.getByTestId("ask-drawer");
  await expect(drawer).toHaveAttribute("data-compact", "true");
  await page.getByTestId("ask-input").fill("À quoi est-elle allergique ?");
  await page.keyboard.press("Enter");
  const reply = page.getByTestId("chat-message").nth(1);
  const answer = reply.locator(".rag-answer");
  await expect(answer).toContainText("Pénicilline (éruption cutanée).", { timeout: 30_000 });
  await expect(answer).toContainText("La note corrigée par le clinicien");
  await expect(answer).toContainText("(l'enregistrement disait autre chose)");
  await expect(answer).not.toContainText("sulfamides");
  const chip = reply.getByTestId("citation-chip").first();
  await expect(chip).toHaveAttribute("data-table", "doctor_notes");
  await expect(chip).toContainText("[1] Allergies");

  // The chip's source is the note itself.
  await chip.click();
  const openSource = page.getByRole("link", { name: "Ouvrir la source" });
  await expect(openSource).toHaveAttribute("href", new RegExp(`/fr/coding\\?id=${noteId}`));
  await page.keyboard.press("Escape");

  const overflow = await page.evaluate(() => document.body.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: path.join(SHOTS, "ask-corrected-fr-360.png") });
  const serious = (await axeViolations(page)).filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious).toEqual([]);
});
