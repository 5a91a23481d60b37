import { useTranslation } from "react-i18next";
import { z } from "zod";
import { DiagnosticAccessNotice } from "#app/components/diagnostics/diagnostic-access.tsx";
import { DiagnosticUploadForm } from "#app/components/diagnostics/upload-form.tsx";
import { PageMeta } from "#app/components/page-meta.tsx";
import { Section, Page as UiPage } from "#app/components/ui/page.tsx";
import { resources } from "#app/i18n/resources.server.ts";
import { createDiagnosticVisit } from "#app/services/diagnostics/diagnostic-visit.server.ts";
import {
  accessFailure,
  diagnosticAccess,
  diagnosticFailure,
  publicAccess,
  serviceFailure,
} from "#app/services/diagnostics/page-context.server.ts";
import { uncachedPageHeaders } from "#app/utils/page-cache.ts";
import { readForm } from "#app/utils/read-form.server.ts";
import type { Route } from "./+types/test-upload";

const CreateSchema = z.object({ intent: z.literal("create"), language: z.enum(["en", "fr", "es"]) });

// SPEC §2: a test page with no guard. Issue 5: a signed-in clinician uploads an audio file into a
// new diagnostic visit; anonymous visitors get a sign-in prompt.
// Diagnostics show live engine state: never a copy (the marketing layout's pages are cached).
export const headers = uncachedPageHeaders;

export async function loader({ context, request }: Route.LoaderArgs) {
  return { access: publicAccess(await diagnosticAccess(context, request)) };
}

export async function action({ context, request }: Route.ActionArgs) {
  const access = await diagnosticAccess(context, request);
  if (access.state !== "ready") return accessFailure(access);
  const parsed = CreateSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) return diagnosticFailure("invalid_input", 400);
  const { language } = parsed.data;
  try {
    const { visitId } = await createDiagnosticVisit({
      ...access.args,
      language,
      // The visit's title is clinical content: in the visit's language.
      title: resources[language].app.diagnostics.visitTitle.upload,
    });
    return { visitId, orgId: access.orgId };
  } catch (error) {
    return serviceFailure(error);
  }
}

export default function Page({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("app");
  const { access } = loaderData;
  return (
    <div data-page="testUpload" className="diagnostics-page">
      <PageMeta title={t("testUpload.title")} />
      <UiPage title={t("testUpload.title")} description={t("testUpload.intro")}>
        <Section id="test-upload">
          {access.state === "ready" ? (
            <DiagnosticUploadForm orgName={access.orgName} />
          ) : (
            <DiagnosticAccessNotice access={access} />
          )}
        </Section>
      </UiPage>
    </div>
  );
}
