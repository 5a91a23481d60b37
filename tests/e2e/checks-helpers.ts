import { expect, type Page } from "@playwright/test";

/**
 * Issue 27's sign gate through the API: every open check of a note acknowledged, as a clinician
 * who has looked at each, so specs about something else can sign (note-checks.spec.ts proves the gate).
 */
export async function acknowledgeAllChecks(page: Page, noteId: string): Promise<void> {
  const note = (await (await page.request.get(`/api/notes/${noteId}`)).json()) as { checks: { id: string; status: string }[] };
  for (const check of note.checks.filter((c) => c.status === "open")) {
    const res = await page.request.post(`/api/notes/${noteId}/checks/${check.id}`, { data: { action: "acknowledge" } });
    expect(res.status()).toBe(200);
  }
}

/** In the editor: "Acknowledge" on each open check, one form post at a time, until none is left. */
export async function acknowledgeInEditor(page: Page): Promise<void> {
  const checks = page.getByTestId("note-check");
  for (let left = await checks.count(); left > 0; left--) {
    await checks.first().locator('button[value="acknowledge"]').click();
    await expect(checks).toHaveCount(left - 1);
  }
}
