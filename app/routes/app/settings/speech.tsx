import { useTranslation } from "react-i18next";
import { data, isRouteErrorResponse } from "react-router";
import { EngineReportTable } from "#app/components/diagnostics/engine-report.tsx";
import { EngineAccuracyTiers } from "#app/components/speech/accuracy-tier.tsx";
import { Section } from "#app/components/ui/page.tsx";
import { runtimeContext } from "#app/runtime/context.ts";
import { requireOrg } from "#app/services/org-context/current-org.ts";
import { MANAGER_ROLES } from "#app/services/orgs/context.server.ts";
import { reportEngines } from "#app/services/speech/engine-report.server.ts";
import { speechRegistryOf } from "#app/services/speech/runtime-registry.server.ts";
import type { Route } from "./+types/speech";

// Settings → Speech (issue 15 §3): owners and admins see the engines this server transcribes
// with, the model each loaded and its WER on the bundled sample (measured once, in the
// background: the page never waits for a decode). Other members get 403 forbidden_role.
export async function loader({ context }: Route.LoaderArgs) {
  const { role } = requireOrg(context);
  if (!MANAGER_ROLES.includes(role)) throw data({ code: "forbidden_role" }, { status: 403 });
  return { engines: await reportEngines(speechRegistryOf(context.get(runtimeContext)), { measureSample: true }) };
}

export default function SpeechSettings({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("app");
  return (
    <div data-section="speech">
      <Section id="speech-engines" title={t("speechEngines.title")} description={t("speechEngines.intro")}>
        <EngineAccuracyTiers engines={loaderData.engines} />
        <EngineReportTable engines={loaderData.engines} />
      </Section>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation("orgSettings");
  const code = isRouteErrorResponse(error) ? (error.data as { code?: unknown } | null)?.code : undefined;
  if (code !== "forbidden_role") throw error;
  return (
    <div data-section="speech" data-error={code}>
      <p role="alert">{t("errors.forbidden_role")}</p>
    </div>
  );
}
