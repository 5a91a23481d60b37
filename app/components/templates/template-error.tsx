import { useTranslation } from "react-i18next";

/** A failed action's code (or, `live`, the editor's own check as you type), translated (templates:errors.<code>), with a generic fallback. */
export function TemplateError({ code, path, live }: { code?: string | null; path?: string; live?: boolean }) {
  const { t } = useTranslation("templates");
  if (!code) return null;
  return (
    <p role="alert" className="form-failure" data-code={code} data-path={path} data-live={live || undefined}>
      {t(`errors.${code}`, { defaultValue: t("errors.failed") })}
    </p>
  );
}
