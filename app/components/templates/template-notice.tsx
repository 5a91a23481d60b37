import { useTranslation } from "react-i18next";

const NOTICES = ["saved", "copied", "duplicated", "deleted", "imported", "created", "missing"] as const;

/** What the last action did, from the redirect's `?notice=` (unknown values show nothing). */
export function TemplateNotice({ notice }: { notice: string | null }) {
  const { t } = useTranslation("templates");
  if (!notice || !(NOTICES as readonly string[]).includes(notice)) return null;
  return (
    <p role="status" className="templates-notice" data-notice={notice}>
      {t(`notices.${notice}`)}
    </p>
  );
}
