import { useTranslation } from "react-i18next";

/** Engines that run on the machine without a trained large model: their transcripts are rough drafts. */
export function isEmbeddedEngine(engine: string): boolean {
  return engine === "pocketsphinx";
}

/**
 * Issue 26: a transcript made by the embedded engine says, where it is read, that every line must
 * be checked against the recording (a warning, never a grey word).
 */
export function OfflineEngineNotice({ engine }: { engine: string }) {
  const { t } = useTranslation("asr");
  if (!isEmbeddedEngine(engine)) return null;
  return (
    <p
      role="note"
      className="rounded-sm border border-warning bg-warning-soft px-2 py-1 font-medium text-fg"
      data-testid="offline-engine-notice"
    >
      {t("offlineEngine.notice")}
    </p>
  );
}
