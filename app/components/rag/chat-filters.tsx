import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Icon } from "#app/components/ui/icons.tsx";
import type { AskFilters, AskRecordType } from "#app/services/rag/model.ts";
import { filterChips, removeFilter } from "./filter-chips.ts";

// SPEC §2 "Chat panel": the active filters as chips, each removable in the widget, and a small
// form (behind a toggle, the panel is narrow) to set record types and the date range.

const TYPES: { type: AskRecordType; label: "page.transcriptions" | "page.doctorNotes" }[] = [
  { type: "transcription", label: "page.transcriptions" },
  { type: "doctor_note", label: "page.doctorNotes" },
];

export function ChatFilters({
  filters,
  onChange,
  formatDay,
}: {
  filters: AskFilters;
  onChange: (filters: AskFilters) => void;
  formatDay: (day: string) => string;
}) {
  const { t } = useTranslation("rag");
  const [open, setOpen] = useState(false);
  const id = useId();
  const chips = filterChips(filters, { day: formatDay, today: t("widget.today") });
  const types = filters.record_types ?? [];
  return (
    <div className="ask-filters">
      <div className="ask-filter-row">
        <button
          type="button"
          className="ui-button"
          data-variant="ghost"
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setOpen((v) => !v)}
        >
          {t("page.filters")}
        </button>
        <ul className="rag-chips" data-testid="filter-chips" aria-label={t("widget.activeFilters")}>
          {chips.map((chip) => {
            const label =
              chip.kind === "dates" ? chip.label : t(TYPES.find((x) => x.type === chip.type)?.label ?? "page.filters");
            return (
              <li key={chip.key}>
                <span className="rag-chip ask-filter-chip">
                  {label}
                  <button
                    type="button"
                    className="ask-chip-remove"
                    aria-label={t("widget.removeFilter", { label })}
                    onClick={() => onChange(removeFilter(filters, chip))}
                  >
                    <Icon name="close" />
                  </button>
                </span>
              </li>
            );
          })}
        </ul>
      </div>
      <fieldset id={id} className="rag-filters" hidden={!open}>
        <legend className="sr-only">{t("page.filters")}</legend>
        {TYPES.map(({ type, label }) => (
          <label key={type}>
            <input
              type="checkbox"
              checked={types.includes(type)}
              onChange={(event) =>
                onChange({
                  ...filters,
                  record_types: event.target.checked ? [...types, type] : types.filter((x) => x !== type),
                })
              }
            />
            {t(label)}
          </label>
        ))}
        <label>
          {t("page.dateFrom")}
          <input
            type="date"
            value={filters.date_from ?? ""}
            onChange={(event) => onChange({ ...filters, date_from: event.target.value || undefined })}
          />
        </label>
        <label>
          {t("page.dateTo")}
          <input
            type="date"
            value={filters.date_to ?? ""}
            onChange={(event) => onChange({ ...filters, date_to: event.target.value || undefined })}
          />
        </label>
      </fieldset>
    </div>
  );
}
