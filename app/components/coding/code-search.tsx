import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { codingApi } from "./api.ts";

interface Result {
  code: string;
  description: string;
  billable: boolean;
  /** An ICD-10-CM Tabular List inclusion term matched (ADR 43), and its code's change since FY2021. */
  matched_term?: string;
  term_code?: string;
  term_status?: "split" | "retired" | "header";
}

/** Add a code by search (GET /api/codes/search): typing searches, a billable result adds a line. */
type SearchSystem = "icd10cm" | "hcpcs" | "cpt" | "cdt";

export function CodeSearch({
  orgId,
  disabled,
  onAdd,
}: {
  orgId: string;
  disabled: boolean;
  onAdd: (system: SearchSystem, code: string) => void;
}) {
  const { t } = useTranslation("coding");
  const id = useId();
  const [system, setSystem] = useState<SearchSystem>("icd10cm");
  const [q, setQ] = useState("");
  const [results, setResults] = useState<Result[] | null>(null);
  useEffect(() => {
    if (!q.trim()) {
      setResults(null);
      return;
    }
    let live = true;
    // A short pause so each keystroke does not send a request.
    const timer = setTimeout(async () => {
      const res = await codingApi<{ results: Result[] }>(
        orgId,
        `/api/codes/search?system=${system}&limit=8&q=${encodeURIComponent(q)}`,
      );
      if (live) setResults(res.ok ? res.body.results : []);
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [q, system, orgId]);
  return (
    <fieldset className="coding-search" data-testid="coding-search">
      <legend>{t("search.label")}</legend>
      <label htmlFor={`${id}-system`}>{t("search.system")}</label>
      <select id={`${id}-system`} value={system} onChange={(e) => setSystem(e.target.value as SearchSystem)}>
        <option value="icd10cm">{t("search.icd10cm")}</option>
        <option value="hcpcs">{t("search.hcpcs")}</option>
        {/* The organisation's imported, licensed sets; empty until an owner or admin imports one. */}
        <option value="cpt">{t("search.cpt")}</option>
        <option value="cdt">{t("search.cdt")}</option>
      </select>
      <input
        type="search"
        aria-label={t("search.label")}
        placeholder={t("search.placeholder")}
        value={q}
        onChange={(e) => setQ(e.target.value)}
        data-testid="coding-search-input"
      />
      {results && results.length === 0 ? <small>{t("search.none")}</small> : null}
      {results && results.length > 0 ? (
        <ul className="coding-results">
          {results.map((r) => (
            <li key={r.code}>
              <button
                type="button"
                className="secondary outline"
                disabled={disabled || !r.billable}
                onClick={() => {
                  onAdd(system, r.code);
                  setQ("");
                }}
                aria-label={t("search.add", { code: r.code })}
                data-testid={`coding-add-${r.code}`}
              >
                <strong>{r.code}</strong> {r.description}
                {r.billable ? null : <small> — {t("search.header")}</small>}
                {r.matched_term ? (
                  <small className="coding-index-term">
                    {" "}
                    — {t("indexTerm.term", { term: r.matched_term })}
                    {r.term_status && r.term_code ? ` (${t(`indexTerm.${r.term_status}`, { code: r.term_code })})` : null}
                  </small>
                ) : null}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </fieldset>
  );
}
