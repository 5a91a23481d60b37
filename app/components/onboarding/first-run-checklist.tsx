import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Icon } from "#app/components/ui/icons.tsx";
import { Section } from "#app/components/ui/page.tsx";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import type { FirstRunProgress } from "#app/services/onboarding/first-run.server.ts";

const STEPS = [
  { key: "patient", path: "/dashboard?new=1#new-patient" },
  { key: "visit", path: "/transcribing" },
  { key: "note", path: "/coding" },
] as const;

/**
 * Issue 11 "First run": three steps on the dashboard of a new organisation, each ticked when the
 * organisation has actually done it; the list goes away once all three are done.
 */
export function FirstRunChecklist({ progress }: { progress: FirstRunProgress }) {
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
                </div>
              )}
            </li>
          );
        })}
      </ol>
    </Section>
  );
}
