import { useTranslation } from "react-i18next";

/** A plain download link (no client routing): the CSV of one figure for the page's range and clinician. */
export function CsvLink({ query, figure }: { query: string; figure: "series" | "per_clinician" | "summary" }) {
  const { t } = useTranslation("dashboard");
  const params = new URLSearchParams(query);
  params.set("figure", figure);
  return (
    <a href={`/api/dashboard/export.csv?${params}`} download className="dash-csv" data-testid={`csv-${figure}`}>
      {t("filters.csv")}
    </a>
  );
}
