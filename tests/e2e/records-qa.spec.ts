import { expect, test } from "@playwright/test";
import { signUpAndConfirm, uniqueEmail } from "./auth-helpers.ts";

// Issue 12 "/records-qa": without JavaScript, in French, a form post answers server-side with
// citations; a chip opens the source view with its 'Open source' link; the address is a deep link
// that answers on load.
test("records Q&A without JavaScript, in French: answer, citations, source view, deep link", async ({ page, browser }) => {
  test.setTimeout(60_000);
  await signUpAndConfirm(page, uniqueEmail("records-qa"));
  const orgs = (await (await page.request.get("/api/orgs")).json()) as { id: string }[];
  const headers = { "x-org-id": orgs[0]?.id ?? "" };
  const post = async (url: string, data: unknown) => {
    const res = await page.request.post(url, { data, headers });
    expect(res.status(), url).toBeLessThan(300);
    return (await res.json()) as { id: string };
  };
  const patient = await post("/api/patients", { display_name: "Jeanne Martin" });
  const visit = await post("/api/visits", {
    patient_id: patient.id,
    title: "Mal de gorge",
    language: "fr",
    consent: true,
    visit_date: "2026-01-15",
  });
  await post(`/api/visits/${visit.id}/transcript`, {
    text: "[patient] Je prends du paracétamol 500 mg deux fois par jour. [doctor] La gorge est rouge, c'est une angine virale.",
  });

  const context = await browser.newContext({
    storageState: await page.context().storageState(),
    javaScriptEnabled: false,
    baseURL: test.info().project.use.baseURL,
  });
  const plain = await context.newPage();
  await plain.goto("/fr/records-qa");
  await plain.getByRole("combobox", { name: "Patient" }).selectOption({ label: "Jeanne Martin" });
  await plain.getByRole("textbox", { name: "Question" }).fill("Quelle dose de paracetamol ?");
  await plain.getByRole("button", { name: "Demander" }).click();
  await expect(plain).toHaveURL(/\/fr\/records-qa\?patient=[0-9a-f-]{36}&q=Quelle/);
  const result = plain.getByTestId("ask-result");
  await expect(result.locator(".rag-answer")).toContainText("Jeanne Martin prend du paracétamol 500 mg deux fois par jour. [1]");
  const chip = result.getByTestId("citations").getByRole("link").first();
  await expect(chip).toContainText("[1] Mal de gorge · 15 janv. 2026");

  await chip.click();
  const source = plain.getByTestId("source-view");
  await expect(source.getByRole("heading", { name: "Mal de gorge" })).toBeVisible();
  await expect(source).toContainText("Transcription · text");
  await expect(source.locator("blockquote")).toContainText("paracétamol 500 mg");
  await expect(source.getByRole("link", { name: "Ouvrir la source" })).toHaveAttribute(
    "href",
    new RegExp(`^/fr/transcribing\\?visit_id=${visit.id}&r=\\d+$`),
  );

  // A link answers on load; nothing relevant is said plainly, never guessed.
  await plain.goto(`/fr/records-qa?patient=${patient.id}&q=${encodeURIComponent("allergie à la pénicilline ?")}`);
  await expect(plain.getByTestId("ask-result").locator(".rag-answer")).toHaveText("Le dossier ne le dit pas.");
  await expect(plain.getByTestId("ask-result")).toContainText("Aucune source");
  await context.close();
});
