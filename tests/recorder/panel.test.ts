// The recording panel's markup (issue 5): consent gate, level meter for assistive technology, the upload
// line, alerts — in the user's language. Rendered to HTML with the recorder namespace's real messages.
import { readFileSync } from "node:fs";
import i18next from "i18next";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { describe, expect, it } from "vitest";
import { RecorderPanelView } from "#app/components/recorder/recorder-panel.tsx";
import { INITIAL_RECORDER_STATE } from "#app/services/recorder/recorder.ts";
import type { RecorderController } from "#app/services/recorder/use-recorder.ts";
import { textOf } from "#tests/billing/render.ts";
import { VISIT } from "./fakes.ts";

const NOW = Date.UTC(2026, 2, 2, 9, 0, 0);

function messages(locale: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`../../locales/${locale}/recorder.json`, import.meta.url), "utf8"));
}

async function i18nFor(locale: string) {
  const instance = i18next.createInstance();
  await instance.use(initReactI18next).init({
    lng: locale,
    fallbackLng: false,
    ns: ["recorder"],
    defaultNS: "recorder",
    resources: { [locale]: { recorder: messages(locale) } },
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });
  return instance;
}

function controller(patch: Partial<RecorderController> = {}): RecorderController {
  const noop = async () => {};
  return {
    ready: true,
    supported: true,
    persistent: true,
    recorder: INITIAL_RECORDER_STATE,
    otherVisitActive: false,
    upload: { phase: "idle", online: true, pendingChunks: 0, pendingBytes: 0, nextRetryAt: null, visits: {} },
    visitUpload: null,
    session: null,
    recovery: null,
    finished: false,
    start: noop,
    pause: () => {},
    resume: noop,
    stop: noop,
    finishInterrupted: noop,
    retryUpload: noop,
    dismissAlert: () => {},
    ...patch,
  };
}

async function render(c: RecorderController, { consented = true, locale = "en" } = {}): Promise<string> {
  const i18n = await i18nFor(locale);
  return renderToString(
    createElement(I18nextProvider, { i18n }, createElement(RecorderPanelView, { controller: c, consented, now: NOW })),
  );
}

function tagWith(html: string, testId: string): string {
  return html.match(new RegExp(`<[^>]*data-testid="${testId}"[^>]*>`))?.[0] ?? "";
}

describe("recording panel", () => {
  it("keeps Start disabled until the visit's consent is confirmed", async () => {
    const without = await render(controller(), { consented: false });
    expect(tagWith(without, "recorder-start")).toContain('disabled=""');
    expect(textOf(without)).toContain("Confirm the patient's consent before you start recording.");
    const withConsent = await render(controller(), { consented: true });
    expect(tagWith(withConsent, "recorder-start")).not.toContain("disabled");
    expect(withConsent).not.toContain('data-testid="recorder-consent"');
  });

  it("shows Pause and Stop while recording, with the elapsed time", async () => {
    const html = await render(
      controller({ recorder: { ...INITIAL_RECORDER_STATE, status: "recording", visitId: VISIT, elapsedMs: 65_000 } }),
    );
    expect(html).toContain('data-testid="recorder-pause"');
    expect(html).toContain('data-testid="recorder-stop"');
    expect(html).not.toContain('data-testid="recorder-start"');
    expect(tagWith(html, "recorder-elapsed")).toContain('dateTime="PT65S"');
    expect(textOf(html)).toContain("Recorded time 01:05");
  });

  it("exposes the input level as a meter with its value", async () => {
    const html = await render(
      controller({ recorder: { ...INITIAL_RECORDER_STATE, status: "recording", visitId: VISIT, level: 0.1 } }),
    );
    const meter = tagWith(html, "recorder-level");
    expect(meter).toMatch(/^<meter/); // implicit role meter
    expect(meter).toContain('aria-valuenow="67"'); // 0.1 RMS = −20 dBFS on a −60…0 dB scale
    expect(meter).toContain('value="67"');
    expect(meter).toContain('aria-valuetext="67 %"');
    expect(textOf(html)).toContain("Microphone level");
  });

  it("says how many chunks wait and when the next try is", async () => {
    const c = controller({
      upload: { phase: "offline", online: false, pendingChunks: 3, pendingBytes: 900, nextRetryAt: NOW + 7_200, visits: {} },
      visitUpload: { visitId: VISIT, pendingChunks: 3, pendingBytes: 900, finishing: false, failure: null },
    });
    expect(textOf(await render(c))).toContain("3 chunks waiting — offline, retrying in 8 s");
    expect(textOf(await render(c, { locale: "fr" }))).toContain("3 segments en attente — hors ligne, nouvel essai dans 8 s");
    expect(textOf(await render(c, { locale: "es" }))).toContain("3 fragmentos pendientes — sin conexión, nuevo intento en 8 s");
    const one = controller({
      upload: { phase: "retrying", online: true, pendingChunks: 1, pendingBytes: 300, nextRetryAt: NOW + 2_000, visits: {} },
      visitUpload: { visitId: VISIT, pendingChunks: 1, pendingBytes: 300, finishing: false, failure: null },
    });
    expect(textOf(await render(one))).toContain("1 chunk waiting — retrying in 2 s");
  });

  it("alerts when the microphone is lost", async () => {
    const html = await render(
      controller({ recorder: { ...INITIAL_RECORDER_STATE, status: "paused", visitId: VISIT, alert: "microphone_lost" } }),
    );
    expect(tagWith(html, "recorder-alert")).toContain('role="alert"');
    expect(textOf(html)).toContain("The microphone was disconnected.");
    expect(html).toContain('data-testid="recorder-resume"');
  });

  it("offers to continue or finish an interrupted recording, and tells what was recovered", async () => {
    const html = await render(
      controller({
        session: {
          key: `pending_save_${VISIT}`,
          visitId: VISIT,
          orgId: "org",
          userId: null,
          status: "pending_save",
          nextSeq: 4,
          startedAt: NOW,
          updatedAt: NOW,
          durationMs: 12_000,
          bytes: 1000,
          segments: [],
          finalizedAt: null,
          failure: null,
        },
        recovery: {
          uploading: [{ visitId: VISIT, chunks: 2, bytes: 500 }],
          finishing: [],
          interrupted: [VISIT],
          failed: [],
          busy: [],
        },
      }),
    );
    const text = textOf(html);
    expect(text).toContain("This recording was interrupted after 00:12.");
    expect(text).toContain("Continue recording");
    expect(text).toContain("Finish without recording more");
    expect(text).toContain("Audio from 1 earlier recording is being sent.");
  });

  it("explains a refusal and offers a retry only when one can help", async () => {
    const failed = (code: string) =>
      controller({
        visitUpload: { visitId: VISIT, pendingChunks: 2, pendingBytes: 10, finishing: true, failure: { code, at: NOW } },
      });
    const trial = await render(failed("trial_ended"));
    expect(textOf(trial)).toContain("Your practice's trial has ended");
    expect(textOf(trial)).toContain("Try sending again");
    const closed = await render(failed("visit_closed"));
    expect(textOf(closed)).toContain("This visit no longer accepts audio.");
    expect(textOf(closed)).not.toContain("Try sending again");
  });

  it("once the visit's manifest is accepted, says so and offers no new recording", async () => {
    const html = await render(controller({ finished: true }));
    expect(textOf(html)).toContain("Recording saved. Transcription has started.");
    expect(html).not.toContain('data-testid="recorder-start"');
  });

  it("warns when audio cannot be kept on this device", async () => {
    expect(textOf(await render(controller({ persistent: false })))).toContain("keep the tab open until everything is sent");
  });
});
