import { useTranslation } from "react-i18next";
import { useLocale } from "#app/i18n/use-locale.ts";
import type { PerioSummary } from "#app/services/perio/summary.ts";
import type { Numbering } from "#app/services/perio/teeth.ts";

/**
 * Print (the browser's dialog also saves a PDF): the clinic copy is the whole chart with its summary
 * and classification; the patient copy is a plain-language page about their gums.
 */
export function PrintButtons({ examId, orgId, numbering }: { examId: string; orgId: string; numbering: Numbering }) {
  const { t } = useTranslation("perio");
  const lang = useLocale();
  const pdf = (copy: "clinic" | "patient") =>
    `/api/perio-exams/${examId}/pdf?${new URLSearchParams({ copy, lang, numbering, org_id: orgId })}`;
  const print = (copy: "clinic" | "patient") => {
    document.body.dataset.perioPrint = copy;
    window.print();
    delete document.body.dataset.perioPrint;
  };
  return (
    <span className="perio-print-buttons perio-no-print">
      <button type="button" className="ui-button" data-variant="secondary" onClick={() => print("clinic")}>
        {t("print.clinic")}
      </button>
      <button type="button" className="ui-button" data-variant="secondary" onClick={() => print("patient")}>
        {t("print.patient")}
      </button>
      <a className="ui-button" data-variant="ghost" href={pdf("clinic")} data-testid="perio-pdf-clinic">
        {t("print.pdf_clinic")}
      </a>
      <a className="ui-button" data-variant="ghost" href={pdf("patient")} data-testid="perio-pdf-patient">
        {t("print.pdf_patient")}
      </a>
    </span>
  );
}

export function PatientCopy({ patientName, date, summary }: { patientName: string; date: string; summary: PerioSummary }) {
  const { t } = useTranslation("perio");
  return (
    <section className="perio-patient-copy" aria-hidden="true">
      <h2>{t("print.patient_title", { name: patientName, date })}</h2>
      <ul>
        <li>{t("print.patient_teeth", { teeth: summary.teethPresent })}</li>
        {summary.bopPercent !== null ? <li>{t("print.patient_bleeding", { percent: summary.bopPercent })}</li> : null}
        <li>{t("print.patient_pockets", { count: summary.pd4 })}</li>
        {summary.plaquePercent !== null ? <li>{t("print.patient_plaque", { percent: summary.plaquePercent })}</li> : null}
      </ul>
      <p>{t("print.patient_advice")}</p>
    </section>
  );
}
