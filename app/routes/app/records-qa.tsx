import { useTranslation } from "react-i18next";
import { Form, redirect, useNavigation } from "react-router";
import { AppPage } from "#app/components/app-page.tsx";
import { AnswerText } from "#app/components/rag/answer-text.tsx";
import { CitationList } from "#app/components/rag/citation-list.tsx";
import { SourceView } from "#app/components/rag/source-view.tsx";
import { localeFromPath } from "#app/i18n/config.ts";
import { loadRecordsQaPage } from "#app/services/rag/page.server.ts";
import { readRecordsQaQuery, recordsQaSearch } from "#app/services/rag/records-qa-query.ts";
import { pageUrl } from "#app/utils/page-url.ts";
import { readForm } from "#app/utils/read-form.server.ts";
import type { Route } from "./+types/records-qa";

// /records-qa (SPEC §2, issue 12): the full-page Ask Murmur. The question lives in the address
// (?patient=&q=&type=&from=&to=), so a link answers on load; the form posts, and the post redirects
// to that address, so it works without JavaScript. The source view is ?source=<citation id>.

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = pageUrl(request);
  const page = await loadRecordsQaPage(context, request, localeFromPath(url.pathname));
  return { ...page, renderedAt: Date.now(), path: url.pathname };
}

export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const fields = new URLSearchParams();
  for (const [key, value] of form) if (typeof value === "string") fields.append(key, value);
  const query = readRecordsQaQuery(new URL(`http://x/?${fields}`));
  throw redirect(`${pageUrl(request).pathname}${recordsQaSearch({ ...query, source: "" })}`, 303);
}

export default function RecordsQa({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("rag");
  const busy = useNavigation().state !== "idle";
  const { query, patients, result, error, source, sourceError, renderedAt, path, canAskRecords } = loaderData;
  const here = `${path}${recordsQaSearch({ ...query, source: "" })}`;
  const sourceHref = (id: string) => `${path}${recordsQaSearch({ ...query, source: id })}#source`;
  return (
    <AppPage page="recordsQa">
      <div className="rag-page">
        <Form method="post" className="rag-form" data-testid="ask-form">
          {canAskRecords ? (
            <label>
              {t("page.patient")}
              <select name="patient" defaultValue={query.patient}>
                <option value="">{t("page.patientAny")}</option>
                {patients.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.display_name}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <label>
            {t("page.question")}
            <textarea name="q" rows={3} maxLength={2000} required defaultValue={query.q} placeholder={t("page.placeholder")} />
          </label>
          {canAskRecords ? (
            <fieldset className="rag-filters">
              <legend>{t("page.filters")}</legend>
              <label>
                <input type="checkbox" name="type" value="transcription" defaultChecked={query.types.includes("transcription")} />
                {t("page.transcriptions")}
              </label>
              <label>
                <input type="checkbox" name="type" value="doctor_note" defaultChecked={query.types.includes("doctor_note")} />
                {t("page.doctorNotes")}
              </label>
              <label>
                {t("page.dateFrom")}
                <input type="date" name="from" defaultValue={query.from} />
              </label>
              <label>
                {t("page.dateTo")}
                <input type="date" name="to" defaultValue={query.to} />
              </label>
            </fieldset>
          ) : null}
          <button type="submit" className="ui-button" disabled={busy}>
            {t("page.ask")}
          </button>
        </Form>
        <section className="rag-result" aria-live="polite" data-testid="ask-result">
          {error ? (
            <p role="alert" className="rag-error">
              {t(`errors.${error}`, { defaultValue: t("errors.unexpected") })}
            </p>
          ) : null}
          {result ? (
            <>
              <h2>{t("page.answer")}</h2>
              {result.scope === "help" ? <p className="rag-muted">{t("answer.helpDisclaimer")}</p> : null}
              <AnswerText text={result.answer} citationHref={(n) => `#citation-${n}`} />
              {result.usedFallback ? <p className="rag-muted">{t("answer.fallbackNotice")}</p> : null}
              <h3>{t("page.sources")}</h3>
              <CitationList citations={result.citations} sourceHref={sourceHref} />
              <p className="rag-muted" data-testid="latency">
                {t("page.latency", { ms: result.latencyMs })}
              </p>
            </>
          ) : !error ? (
            <p className="rag-muted">{t("page.empty")}</p>
          ) : null}
        </section>
        {query.source ? (
          <div id="source">
            <SourceView source={source} error={sourceError} closeHref={here} timestamp={renderedAt} />
          </div>
        ) : null}
      </div>
    </AppPage>
  );
}
