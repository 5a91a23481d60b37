import { useTranslation } from "react-i18next";
import { Form, Link, useNavigation } from "react-router";
import { Icon } from "#app/components/ui/icons.tsx";
import { Section } from "#app/components/ui/page.tsx";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import type { FirstRunProgress } from "#app/services/onboarding/first-run.server.ts";

const STEPS = [
  { key: "patient", path: "/dashboard?new=1#new-patient" },
  { key: "visit", path: "/transcribing" },
  { key: "note", path: "/coding" },
] as const;

/** The dashboard action's intent for "Try a sample visit". */
export const SAMPLE_VISIT_INTENT = "sample_visit";

const SAMPLE_ERRORS = new Set(["trial_ended", "visit_limit_reached", "forbidden_role"]);

/**
 * "A bundled sample conversation to try without a microphone": a plain form post (works without
 * JavaScript) that uploads the sample through the real pipeline and opens the new visit.
 */
function SampleVisitForm({ primary, error }: { primary: boolean; error: string | null }) {
  const { t } = useTranslation("app");
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === SAMPLE_VISIT_INTENT;
  return (
    <Form method="post" className="ui-checklist-sample" data-testid="sample-visit-form">
      <input type="hidden" name="intent" value={SAMPLE_VISIT_INTENT} />
      <button
        type="submit"
        className="ui-button"
        data-variant={primary ? undefined : "secondary"}
        aria-describedby="sample-visit-hint"
        aria-busy={busy || undefined}
        disabled={busy}
      >
        <Icon name="play" size={16} />
        {t("firstRun.sample.action")}
      </button>
      <p id="sample-visit-hint">{t("firstRun.sample.hint")}</p>
      {error ? (
        <p role="alert" className="form-failure" data-code={error}>
          {t(`firstRun.sample.errors.${SAMPLE_ERRORS.has(error) ? error : "failed"}`)}
        </p>
      ) : null}
    </Form>
  );
}

/**
 * Issue 11 "First run": three steps on the dashboard of a new organisation, each ticked when the
 * organisation has actually done it; the list goes away once all three are done.
 */
export function FirstRunChecklist({ progress, sampleError }: { progress: FirstRunProgress; sampleError?: string | null }) {
  const { t } = useTranslation("app");
  const to = useLocalizedPath();
  const done = STEPS.filter((step) => progress[step.key]).length;
  if (done === STEPS.length) return null;
  return (
    <Section
      id="first-run"
      testId="first-run"
      title={t("firstRun.title")}
      description={t("firstRun.progress", { done, total: STEPS.length })}
    >
      <ol className="ui-checklist">
        {STEPS.map((step, index) => {
          const isDone = progress[step.key];
          return (
            <li key={step.key} data-done={isDone ? "true" : "false"} data-testid={`first-run-${step.key}`}>
              <p className="ui-checklist-title">
                <Icon name={isDone ? "checkCircle" : "circle"} size={20} />
                <span>
                  <span className="sr-only">{isDone ? t("firstRun.stepDone") : t("firstRun.stepTodo")} </span>
                  {index + 1}. {t(`firstRun.steps.${step.key}.title`)}
                </span>
              </p>
              <p>{t(`firstRun.steps.${step.key}.body`)}</p>
              {isDone ? null : (
                <div className="ui-checklist-actions">
                  <Link to={to(step.path)} className="ui-button" data-variant={index === done ? undefined : "secondary"}>
                    {t(`firstRun.steps.${step.key}.action`)}
                  </Link>
                  {step.key === "visit" ? <SampleVisitForm primary={false} error={sampleError ?? null} /> : null}
                </div>
              )}
            </li>
          );
        })}
      </ol>
    </Section>
  );
}
