import { useTranslation } from "react-i18next";
import { Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { DiagnosticAccessNotice } from "#app/components/diagnostics/diagnostic-access.tsx";
import { EngineReportTable } from "#app/components/diagnostics/engine-report.tsx";
import { RealAudioResult } from "#app/components/diagnostics/real-audio-result.tsx";
import { PageMeta } from "#app/components/page-meta.tsx";
import { Section, Page as UiPage } from "#app/components/ui/page.tsx";
import { localeFromPath, localizePath } from "#app/i18n/config.ts";
import { resources } from "#app/i18n/resources.server.ts";
import { runtimeContext } from "#app/runtime/context.ts";
import {
  accessFailure,
  diagnosticAccess,
  diagnosticFailure,
  publicAccess,
  serviceFailure,
} from "#app/services/diagnostics/page-context.server.ts";
import { readRealAudioRun, startRealAudioRun } from "#app/services/diagnostics/real-audio-run.server.ts";
import { realAudioSamples, TESTDATA_PACKAGE } from "#app/services/diagnostics/real-audio-sample.server.ts";
import { reportEngines } from "#app/services/speech/engine-report.server.ts";
import { speechRegistryOf } from "#app/services/speech/runtime-registry.server.ts";
import { blobStore } from "#app/services/storage/storage.server.ts";
import { isAppError } from "#app/utils/app-error.ts";
import { uncachedPageHeaders } from "#app/utils/page-cache.ts";
import { pageUrl } from "#app/utils/page-url.ts";
import { readForm } from "#app/utils/read-form.server.ts";
import type { Route } from "./+types/test-real-audio";

const RunQuerySchema = z.object({ visit_id: z.uuid().optional() });
const RunSchema = z.object({ intent: z.literal("run") });

// SPEC §2: a test page with no guard. Issue 5: real read speech (Debian's pocketsphinx-testdata,
// read where the package put it) through the real pipeline, with the word error rate against
// what the reader said. Anonymous visitors get a sign-in prompt.
// Diagnostics show live engine state: never a copy (the marketing layout's pages are cached).
export const headers = uncachedPageHeaders;

export async function loader({ context, request }: Route.LoaderArgs) {
  const access = await diagnosticAccess(context, request);
  const sample = (await realAudioSamples())[0];
  const query = RunQuerySchema.safeParse(Object.fromEntries(pageUrl(request).searchParams));
  let run = null;
  if (access.state === "ready" && query.success && query.data.visit_id) {
    try {
      run = await readRealAudioRun({ ...access.args, visitId: query.data.visit_id, reference: sample?.reference ?? null });
    } catch (error) {
      // Another organisation's or a deleted visit: show the page without it.
      if (!isAppError(error)) throw error;
    }
  }
  // Issue 15 §3: per engine, the loaded model and its WER on the bundled sample (measured in the
  // background, started only for a signed-in member who may run diagnostics).
  // Anonymous visitors do not see what the server runs.
  const engines =
    access.state === "ready" ? await reportEngines(speechRegistryOf(context.get(runtimeContext)), { measureSample: true }) : null;
  return {
    access: publicAccess(access),
    engines,
    sample: sample ? { id: sample.id, reference: sample.reference } : null,
    testdataPackage: TESTDATA_PACKAGE,
    run,
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const access = await diagnosticAccess(context, request);
  if (access.state !== "ready") return accessFailure(access);
  if (!RunSchema.safeParse(Object.fromEntries(await readForm(request))).success) {
    return diagnosticFailure("invalid_input", 400);
  }
  let visitId: string;
  try {
    visitId = await startRealAudioRun({
      ...access.args,
      sample: (await realAudioSamples())[0],
      store: blobStore(context.get(runtimeContext).env),
      title: resources.en.app.diagnostics.visitTitle.realAudio,
    });
  } catch (error) {
    return serviceFailure(error);
  }
  const page = localizePath("/test-real-audio", localeFromPath(pageUrl(request).pathname));
  return redirect(`${page}?visit_id=${visitId}`);
}

export default function Page({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("app");
  const { access, sample, run } = loaderData;
  const busy = useNavigation().state === "submitting";
  const failure = actionData && "failure" in actionData ? actionData.failure : null;
  return (
    <div data-page="testRealAudio" className="diagnostics-page">
      <PageMeta title={t("testRealAudio.title")} />
      <UiPage title={t("testRealAudio.title")} description={t("testRealAudio.intro")}>
        <Section id="test-real-audio">
          {sample ? (
            <figure>
              <figcaption>{t("diagnostics.realAudio.sample", { id: sample.id })}</figcaption>
              <p>
                {t("diagnostics.realAudio.reference")}: <q lang="en">{sample.reference}</q>
              </p>
            </figure>
          ) : (
            <p role="alert" data-state="sample_missing">
              {t("diagnostics.realAudio.missing", { package: loaderData.testdataPackage })}
            </p>
          )}
          {access.state !== "ready" ? (
            <DiagnosticAccessNotice access={access} />
          ) : sample ? (
            <Form method="post" className="ui-form">
              <p>{t("diagnostics.org", { org: access.orgName })}</p>
              <input type="hidden" name="intent" value="run" />
              <button type="submit" className="ui-button" aria-busy={busy || undefined} disabled={busy}>
                {t("diagnostics.realAudio.run")}
              </button>
              {failure ? (
                <p role="alert" className="form-failure" data-code={failure.code}>
                  {t(`diagnostics.errors.${failure.code}`, { defaultValue: t("diagnostics.errors.unexpected") })}
                </p>
              ) : null}
            </Form>
          ) : null}
        </Section>
        {run ? (
          <Section>
            <RealAudioResult run={run} />
          </Section>
        ) : null}
        {loaderData.engines ? (
          <Section id="speech-engines" title={t("speechEngines.title")} description={t("speechEngines.intro")}>
            <EngineReportTable engines={loaderData.engines} />
          </Section>
        ) : null}
      </UiPage>
    </div>
  );
}
