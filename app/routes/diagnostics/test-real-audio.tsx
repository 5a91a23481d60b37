import { useTranslation } from "react-i18next";
import { PageMeta } from "#app/components/page-meta.tsx";

// SPEC §2: a test page with no guard; its function arrives with the transcription pipeline.
export default function Page() {
  const { t } = useTranslation("app");
  return (
    <article data-page="testRealAudio">
      <PageMeta title={t("testRealAudio.title")} />
      <h1>{t("testRealAudio.title")}</h1>
      <p>{t("testRealAudio.intro")}</p>
    </article>
  );
}
