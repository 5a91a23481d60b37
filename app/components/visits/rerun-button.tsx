import { useTranslation } from "react-i18next";
import { useFetcher } from "react-router";

/** "Transcribe again": a new version from the same audio; the earlier versions stay. */
export function RerunButton({ visitId }: { visitId: string }) {
  const { t } = useTranslation("app");
  const fetcher = useFetcher<{ error?: string }>();
  const error = fetcher.data?.error;
  return (
    <fetcher.Form method="post" data-testid="transcript-rerun">
      <input type="hidden" name="intent" value="rerun" />
      <input type="hidden" name="visit_id" value={visitId} />
      {error ? (
        <p role="alert" data-code={error}>
          {t(`visits.errors.${error}`, { defaultValue: t("visits.errors.save_failed") })}
        </p>
      ) : null}
      <button type="submit" className="secondary" aria-busy={fetcher.state !== "idle"} disabled={fetcher.state !== "idle"}>
        {t("visits.rerun")}
      </button>
    </fetcher.Form>
  );
}
