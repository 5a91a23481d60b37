import { Fragment } from "react";
import { useTranslation } from "react-i18next";
import { data } from "react-router";
import { PageMeta } from "#app/components/page-meta.tsx";
import { runtimeContext } from "#app/runtime/context.ts";
import { listMailbox } from "#app/services/auth/mailbox.server.ts";
import type { Route } from "./+types/mailbox";

// Development only (MURMUR_DEV_MAILBOX=1): every email and SMS the auth service queued, newest first.
export async function loader({ context }: Route.LoaderArgs) {
  const { auth } = context.get(runtimeContext);
  if (!auth.config.mailboxEnabled) throw data({ kind: "unmatched" }, { status: 404 });
  return { messages: await listMailbox(auth) };
}

const URL_PATTERN = /https?:\/\/[^\s<>"]+/g;

/** The text cut into plain runs and links, each keyed by where it starts in the text. */
function segments(text: string): { at: number; text: string; isLink: boolean }[] {
  const out: { at: number; text: string; isLink: boolean }[] = [];
  let at = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    if (match.index > at) out.push({ at, text: text.slice(at, match.index), isLink: false });
    out.push({ at: match.index, text: match[0], isLink: true });
    at = match.index + match[0].length;
  }
  if (at < text.length) out.push({ at, text: text.slice(at), isLink: false });
  return out;
}

/** Message text with its links clickable, so a sign-in link can be followed from here. */
function LinkedText({ text }: { text: string }) {
  return (
    <pre className="mailbox-text">
      {segments(text).map((s) =>
        s.isLink ? (
          <a key={s.at} href={s.text}>
            {s.text}
          </a>
        ) : (
          <Fragment key={s.at}>{s.text}</Fragment>
        ),
      )}
    </pre>
  );
}

export default function DevMailbox({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("dev");
  const { messages } = loaderData;
  return (
    <main className="container">
      <PageMeta title={t("mailbox.title")} />
      <hgroup>
        <h1>{t("mailbox.title")}</h1>
        <p>{t("mailbox.lead")}</p>
      </hgroup>
      <p>
        <a href="/dev/mailbox.json">{t("mailbox.json")}</a>
      </p>
      {messages.length === 0 ? <p>{t("mailbox.empty")}</p> : null}
      {messages.map((m) => (
        <article key={`${m.created_at}-${m.to}-${m.text.length}`} data-channel={m.channel}>
          <header>
            <strong>{m.channel === "sms" ? t("mailbox.sms") : (m.subject ?? t("mailbox.noSubject"))}</strong>
            <br />
            <small>
              {t("mailbox.to")}: {m.to} · <time dateTime={m.created_at}>{m.created_at}</time>
            </small>
          </header>
          <LinkedText text={m.text} />
        </article>
      ))}
    </main>
  );
}
