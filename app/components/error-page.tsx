import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import { NAVIGATION_FAILED_EVENT } from "#app/utils/constants.ts";
import { PageMeta } from "./page-meta.tsx";

export type ErrorKind = "unmatched" | "invalid" | "client" | "server";

/**
 * SPEC §2, §8: a not-found page for 404 ("Page not found: {path}" when no route matched,
 * "Page Not Found: {path}" when a page's validity check failed) and a general page otherwise.
 * Never shows a stack trace.
 */
export function ErrorPage({ status, kind, path }: { status: number; kind: ErrorKind; path: string }) {
  const { t } = useTranslation("errors");
  const to = useLocalizedPath();
  useEffect(() => {
    if (kind === "server") window.dispatchEvent(new Event(NAVIGATION_FAILED_EVENT));
  }, [kind]);
  const title = status === 404 ? t("notFound.title") : status >= 500 ? t("server.title") : t("client.title");
  const message =
    kind === "unmatched"
      ? t("notFound.unmatched", { path })
      : kind === "invalid"
        ? t("notFound.invalid", { path })
        : kind === "client"
          ? t("client.message", { status })
          : t("server.message");
  return (
    <main className="container error-page" data-status={status}>
      <PageMeta title={title} />
      <p className="error-status">{status}</p>
      <h1>{title}</h1>
      <p data-testid="error-message">{message}</p>
      <p>
        <a href={to("/")}>{t("backHome")}</a>
      </p>
    </main>
  );
}
