import { useTranslation } from "react-i18next";
import { StatusBadge } from "../ui/badge.tsx";

/** "N to check" beside the note's status (issue 29): warning while any is left, never a grey word. */
export function ToCheckBadge({ count, testId = "note-to-check" }: { count: number; testId?: string }) {
  const { t } = useTranslation("notes");
  return (
    <StatusBadge tone={count > 0 ? "warning" : "success"} testId={testId}>
      {count > 0 ? t("toCheck.count", { count }) : t("toCheck.none")}
    </StatusBadge>
  );
}
