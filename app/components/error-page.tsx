import type { TFunction } from "i18next";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import { NAVIGATION_FAILED_EVENT } from "#app/utils/constants.ts";
import { Brand } from "./brand.tsx";
import { PageMeta } from "./page-meta.tsx";

export type ErrorKind = "unmatched" | "invalid" | "client" | "server";

/**
 * SPEC §2, §8: a not-found page for 404 ("Page not found: {path}" when no route matched,
 * "Page Not Found: {path}" when a page's validity check failed) and a general page otherwise.
 * Never shows a stack trace.
 */
export function ErrorPage({ status, kind, path, code }: { status: number; kind: ErrorKind; path: string; code?: string }) {
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
          ? clientMessage(t, status, code)
          : t("server.message");
  return (
    <main className="error-page" data-status={status} data-code={kind === "client" ? code : undefined}>
      <PageMeta title={title} />
      <div className="error-card">
        <Brand />
        <p className="error-status">{status}</p>
        <h1>{title}</h1>
        <p data-testid="error-message">{message}</p>
        <p>
          <a href={to("/")} className="ui-button">
            {t("backHome")}
          </a>
        </p>
      </div>
    </main>
  );
}

/** A request error's own text when its stable code has one (errors.http.*), else the generic one with the status. */
function clientMessage(t: TFunction<"errors">, status: number, code: string | undefined): string {
  const generic = t("client.message", { status });
  if (!code || !/^[a-z_]{1,60}$/.test(code)) return generic;
  return t(`http.${code}` as never, { defaultValue: generic });
}
