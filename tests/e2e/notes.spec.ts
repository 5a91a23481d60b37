import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { signUpAndConfirm, uniqueEmail } from "./auth-helpers.ts";
import { acknowledgeInEditor } from "./checks-helpers.ts";
import { t, waitForHydration } from "./helpers.ts";

// Issue 6 "Proof": import a transcript → generate a SOAP note → follow the evidence → edit → sign
// → amend, in English and again in French (French interface, French visit, the French SOAP
// template); the note keeps its own language and the editor works 360 px wide.

const DIALOGUE_EN = [
  "[doctor] Hi, what brings you in today?",
  "[patient] I've had a cough for two weeks and some chest tightness.",
  "[doctor] Any fever?",
  "[patient] No fever or chills.",
  "[patient] I take lisinopril 10 mg daily for my blood pressure.",
  "[doctor] Your blood pressure today is 132 over 84 and your lungs are clear.",
  "[doctor] This looks like a viral bronchitis. Let's start benzonatate 100 mg three times a day.",
  "[doctor] Come back in one week if the cough is not better.",
].join("\n");

const DIALOGUE_FR = [
  "[doctor] Bonjour, qu'est-ce qui vous amène aujourd'hui ?",
  "[patient] J'ai mal à la gorge depuis trois jours et un peu de fièvre.",
  "[doctor] Prenez-vous des médicaments ?",
  "[patient] Je prends du paracétamol 500 mg deux fois par jour.",
  "[doctor] La gorge est rouge, pas de ganglions. C'est une angine virale.",
  "[doctor] Continuez le paracétamol et revenez dans une semaine si ça ne va pas mieux.",
].join("\n");

/** The dialogue spoken (espeak-ng), so the visit has audio to play from a sentence's evidence. */
function spoken(text: string, voice: string): Buffer {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "murmur-notes-")), "visit.wav");
  execFileSync("espeak-ng", ["-v", voice, "-s", "150", "-w", file, text.replace(/\[\w+\] /g, "")]);
  return fs.readFileSync(file);
}

async function visitWithTranscript(
  page: Page,
  prefix: string,
  language: "en" | "fr",
  dialogue: string,
  audio?: Buffer,
): Promise<string> {
  await page.goto(`${prefix}/transcribing`);
  await page.locator('input[name="new_patient_name"]').fill(language === "fr" ? "Jeanne Martin" : "John Smith");
  await page.locator('select[name="language"]').selectOption(language);
  await page.locator('input[name="consent"]').check();
  await page.getByTestId("start-visit").locator('button[type="submit"]').click();
  await expect(page).toHaveURL(/\/transcribing\?visit_id=[0-9a-f-]{36}$/);
  const visitId = new URL(page.url()).searchParams.get("visit_id") ?? "";
  if (audio) {
    const uploaded = await page.request.post(`/api/visits/${visitId}/audio`, {
      data: audio,
      headers: { "content-type": "audio/wav" },
    });
    expect(uploaded.status()).toBe(200);
    // The engine's transcript first; the imported dialogue then becomes the newest version.
    await expect
      .poll(async () => ((await (await page.request.get(`/api/visits/${visitId}`)).json()) as { status: string }).status, {
        timeout: 90_000,
      })
      .toMatch(/^(transcribed|failed)$/);
  }
  const imported = await page.request.post(`/api/visits/${visitId}/transcript`, { data: { text: dialogue } });
  expect(imported.status()).toBe(201);
  // The transcript view itself: a plain visit link opens the note once one was auto-drafted (issue 29).
  await page.goto(`${prefix}/transcribing?visit_id=${visitId}&transcript=1`);
  return visitId;
}

async function generateFromTranscribing(page: Page): Promise<string> {
  await waitForHydration(page);
  const form = page.getByTestId("generate-note");
  await expect(form).toBeVisible();
  await form.getByTestId("generate-template").selectOption("builtin:soap");
  await form.getByTestId("generate-submit").click();
  await expect(page).toHaveURL(/\/coding\?id=[0-9a-f-]{36}$/);
  await expect(page.getByTestId("note-editor")).toHaveAttribute("data-status", "draft", { timeout: 30_000 });
  await waitForHydration(page);
  return new URL(page.url()).searchParams.get("id") ?? "";
}

/** Hovering a sentence with evidence highlights transcript lines; leaving clears them. */
async function followEvidence(page: Page): Promise<void> {
  const sentence = page.locator('[data-testid="note-sentence"]:not([data-evidence="0"])').first();
  await sentence.scrollIntoViewIfNeeded();
  await sentence.hover();
  const active = page.getByTestId("note-transcript").locator("li.evidence-active");
  await expect(active.first()).toBeVisible();
  // The quoted words are marked inside the highlighted line.
  await expect(active.locator("mark").first()).toBeVisible();
  await page.getByTestId("note-editor").locator("header h2").hover();
  await expect(active).toHaveCount(0);
  // Keyboard users get the same: focus shows the evidence.
  await sentence.focus();
  await expect(active.first()).toBeVisible();
}

async function editSignAmend(page: Page, lang: "en" | "fr", added: string, amended: string): Promise<void> {
  const plan = page.getByTestId("note-section-plan").locator("textarea");
  const before = await plan.inputValue();
  await plan.fill(`${before}\n- ${added}`.trim());
  await page.getByTestId("note-save").click();
  await expect(page.getByTestId("note-versions")).toBeAttached();
  const typed = page.getByTestId("note-section-plan").locator('[data-testid="note-sentence"][data-source="clinician"]');
  await expect(typed).toHaveText(added);

  // Issue 27: the draft's checks (omissions, unsupported sentences…) are looked at before signing.
  await acknowledgeInEditor(page);
  await expect(page.getByTestId("note-sign")).toBeEnabled();
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByTestId("note-sign").click();
  await expect(page.getByTestId("note-editor")).toHaveAttribute("data-status", "signed");
  await expect(page.getByTestId("note-hash")).toHaveText(/^[0-9a-f]{64}$/);
  await expect(page.getByTestId("note-status")).toHaveText(t(lang, "notes", "status.signed"));
  await expect(page.getByTestId("note-section-plan").locator("textarea")).toHaveCount(0);
  const signedHash = await page.getByTestId("note-hash").textContent();

  await page.getByTestId("note-amend").locator("summary").click();
  const amendPlan = page.getByTestId("note-amend").locator('textarea[name="section.plan"]');
  await amendPlan.fill((await amendPlan.inputValue()).replace(added, amended));
  await page.getByTestId("note-amend-reason").fill(lang === "fr" ? "Durée précisée" : "Duration added");
  await page.getByTestId("note-amend-submit").click();
  await expect(page.getByTestId("note-editor")).toHaveAttribute("data-status", "amended");
  await expect(page.getByTestId("note-section-plan")).toContainText(amended);
  await expect(page.getByTestId("note-hash")).not.toHaveText(signedHash ?? "");
  await page.getByTestId("note-versions").locator("summary").click();
  await expect(page.getByTestId("note-versions").locator('li[data-kind="amendment"]')).toContainText(
    lang === "fr" ? "Durée précisée" : "Duration added",
  );
}

test("import a transcript, generate a SOAP note, follow its evidence, edit, sign and amend", async ({ page }) => {
  test.setTimeout(120_000);
  await signUpAndConfirm(page, uniqueEmail("notes"));
  await visitWithTranscript(page, "", "en", DIALOGUE_EN, spoken(DIALOGUE_EN, "en-us"));
  const noteId = await generateFromTranscribing(page);

  await expect(page.getByTestId("note-section-subjective").locator("h3")).toHaveText("Subjective");
  await expect(page.getByTestId("note-editor")).toContainText(/lisinopril/i);
  await followEvidence(page);
  await expect(page.getByTestId("note-omissions")).toBeVisible();

  // Issue 18: "Let's start benzonatate … three times a day" is written as an order, its evidence still linked.
  const order = page
    .getByTestId("note-section-plan")
    .locator('[data-testid="note-sentence"]', { hasText: "Start benzonatate 100 mg 3 times daily." });
  await expect(order).toHaveAttribute("data-supported", "true");
  await expect(order).not.toHaveAttribute("data-evidence", "0");
  // …and pointing at it still highlights the transcript line it was said in, the spoken words marked.
  await order.hover();
  const saidIn = page.getByTestId("note-transcript").locator("li.evidence-active");
  await expect(saidIn).toHaveCount(1);
  await expect(saidIn.locator("mark")).toContainText("Let's start benzonatate 100 mg three times a day");

  // Clicking a sentence plays the recording where it was said.
  const sentence = page.locator('[data-testid="note-sentence"]:not([data-evidence="0"])').last();
  const start = Number(await sentence.getAttribute("data-start"));
  await sentence.click();
  const audio = page.getByTestId("note-audio");
  await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime)).toBeGreaterThanOrEqual(start - 0.1);
  expect(start).toBeGreaterThan(0);

  // Rating, copy and the PDF.
  await page.getByTestId("note-rating").locator('input[name="rating"][value="4"]').check();
  await page.getByTestId("note-rating").locator('button[type="submit"]').click();
  await expect(page.getByTestId("note-rating-current")).toBeVisible();
  const pdf = await page.request.get((await page.getByTestId("note-pdf").getAttribute("href")) ?? "");
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  expect((await pdf.body()).subarray(0, 8).toString("latin1")).toBe("%PDF-1.4");

  await editSignAmend(page, "en", "Rest and fluids.", "Rest and fluids for three days.");
  const note = (await (await page.request.get(`/api/notes/${noteId}`)).json()) as {
    versions: { kind: string; edit_distance: unknown }[];
  };
  expect(note.versions.map((v) => v.kind)).toEqual(["draft_edit", "signed", "amendment"]);
  expect(note.versions[1]?.edit_distance).toMatchObject({ plan: expect.any(Number) });

  // The list of recent notes links to it.
  await page.goto("/coding");
  await expect(page.getByTestId("note-list").locator(`a[href$="/coding?id=${noteId}"]`)).toBeVisible();
});

test("the same in French: French interface, a French visit and the French SOAP template, 360 px wide", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 360, height: 800 });
  await signUpAndConfirm(page, uniqueEmail("notes-fr"), "/fr");
  await visitWithTranscript(page, "/fr", "fr", DIALOGUE_FR);
  await expect(page.getByTestId("generate-note").locator("h3")).toHaveText(t("fr", "notes", "generate.title"));
  await expect(page.getByTestId("generate-template").locator('option[value="builtin:soap"]')).toHaveText("Note SOAP");
  await generateFromTranscribing(page);
  await expect(page).toHaveURL(/\/fr\/coding\?id=/);
  await expect(page.getByTestId("note-editor")).toHaveAttribute("data-note-language", "fr");
  await expect(page.getByTestId("note-section-subjective").locator("h3")).toHaveText("Subjectif");
  await expect(page.getByTestId("note-editor")).toContainText(/paracétamol/i);
  await expect(page.getByTestId("note-save")).toHaveText(t("fr", "notes", "editor.save"));
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await followEvidence(page);
  // Issue 18: "Continuez… et revenez…" is written as instructions, still linked to the line that said them.
  const instruction = page
    .getByTestId("note-section-plan")
    .locator('[data-testid="note-sentence"]', { hasText: "Continuer le paracétamol et revenir dans 1 semaine" });
  await instruction.scrollIntoViewIfNeeded();
  await instruction.hover();
  const saidIn = page.getByTestId("note-transcript").locator("li.evidence-active");
  await expect(saidIn).toHaveCount(1);
  await expect(saidIn.locator("mark")).toContainText("Continuez le paracétamol et revenez dans une semaine");
  await editSignAmend(page, "fr", "Repos et hydratation.", "Repos et hydratation pendant trois jours.");
});

test("a malformed or unknown note id is the Page Not Found 404", async ({ page }) => {
  await signUpAndConfirm(page, uniqueEmail("notes-404"));
  const res = await page.goto("/coding?id=not-a-uuid");
  expect(res?.status()).toBe(404);
  const unknown = await page.goto("/coding?id=00000000-0000-4000-8000-000000000000");
  expect(unknown?.status()).toBe(404);
});
