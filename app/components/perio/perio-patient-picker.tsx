import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { EmptyState, Section } from "#app/components/ui/page.tsx";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import type { PatientSummary } from "#app/services/patients/patients.server.ts";

/** Without ?patient_id=: pick whose chart to open. */
export function PerioPatientPicker({ patients }: { patients: PatientSummary[] }) {
  const { t } = useTranslation("perio");
  const to = useLocalizedPath();
  if (patients.length === 0) return <EmptyState title={t("picker.empty")} />;
  return (
    <Section title={t("picker.title")}>
      <ul className="perio-picker" data-testid="perio-patients">
        {patients.map((p) => (
          <li key={p.id}>
            <Link to={`${to("/periodontal-chart")}?patient_id=${p.id}`}>{p.display_name}</Link>
          </li>
        ))}
      </ul>
    </Section>
  );
}
