import { type KeyboardEvent, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocale, useLocalizedPath } from "#app/i18n/use-locale.ts";
import type { Citation } from "#app/services/rag/model.ts";
import { formatCalendarDate, formatInZone } from "#app/utils/zoned-time.ts";
import { AnswerText } from "./answer-text.tsx";
import { ChatFilters } from "./chat-filters.tsx";
import { lastAnswer } from "./chat-state.ts";
import { CitationChips } from "./citation-chips.tsx";
import { ASSISTANT } from "./constants.ts";
import { SourceModal } from "./source-modal.tsx";
import { pickSuggestions } from "./suggestions.ts";
import type { AskChat } from "./use-ask-chat.ts";

// SPEC §2 "Chat panel": messages with roles and times, typing indicator, empty placeholder and
// suggestions, filter chips, the growing textarea (Enter sends, Shift+Enter a new line), the Ask
// button, copy last answer, error line, latency and fallback notice.

function grow(textarea: HTMLTextAreaElement) {
  textarea.style.height = "auto";
  textarea.style.height = `${Math.min(textarea.scrollHeight, ASSISTANT.textareaMaxPx)}px`;
}

export function ChatPanel({ chat, orgId, timeZone }: { chat: AskChat; orgId: string; timeZone: string }) {
  const { t } = useTranslation("rag");
  const locale = useLocale();
  const to = useLocalizedPath();
  const [query, setQuery] = useState("");
  const [copied, setCopied] = useState(false);
  const [source, setSource] = useState<Citation | null>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  // Picked once per panel (SPEC §2: two visit questions and two help questions, at random).
  const suggestions = useMemo(
    () =>
      pickSuggestions(
        t("widget.suggestions.visit", { returnObjects: true }) as string[],
        t("widget.suggestions.help", { returnObjects: true }) as string[],
      ),
    [t],
  );

  const submit = async (text: string) => {
    if (!text.trim() || chat.loading) return;
    setQuery("");
    setCopied(false);
    if (input.current) input.current.style.height = "auto";
    // SPEC §4: on failure the widget restores the query.
    if (!(await chat.send(text))) setQuery(text);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit(query);
    }
  };
  const last = lastAnswer(chat.messages);
  const lastMessage = chat.messages.at(-1);

  return (
    <div className="ask-chat" data-testid="chat-panel">
      <ol className="ask-messages" aria-live="polite" aria-label={t("widget.messages")} data-testid="chat-messages">
        {chat.messages.length === 0 ? (
          <li className="ask-empty">
            <p className="rag-muted">{t("page.empty")}</p>
            <p className="rag-muted">{t("widget.suggestionsTitle")}</p>
            <ul className="rag-chips" data-testid="suggestions">
              {suggestions.map((s) => (
                <li key={s.text}>
                  <button type="button" className="rag-chip" data-kind={s.kind} onClick={() => void submit(s.text)}>
                    {s.text}
                  </button>
                </li>
              ))}
            </ul>
          </li>
        ) : null}
        {chat.messages.map((message) => (
          <li key={message.id} className="ask-message" data-role={message.role} data-testid="chat-message">
            <p className="ask-message-meta">
              <strong>{message.role === "user" ? t("widget.you") : t("widget.assistant")}</strong>{" "}
              <time dateTime={message.createdAt}>
                {formatInZone(message.createdAt, locale, timeZone, { timeStyle: "short" })}
              </time>
            </p>
            {message.role === "user" ? (
              <p className="ask-question">{message.content}</p>
            ) : (
              <>
                {message.disclaimer ? <p className="rag-muted">{t("answer.helpDisclaimer")}</p> : null}
                {message.searchUnavailable ? (
                  <p>{t("answer.searchUnavailable")}</p>
                ) : (
                  <AnswerText text={message.content} citationHref={(n) => `#${message.id}-citation-${n}`} />
                )}
                {message.support ? (
                  <div className="ask-support" data-testid="support-block">
                    <p>{t("widget.supportBody")}</p>
                    <a href={to(message.support.url)}>{t("widget.supportLink")}</a>
                  </div>
                ) : null}
                {message.usedFallback && !message.searchUnavailable ? (
                  <p className="rag-muted" data-testid="fallback-notice">
                    {t("answer.fallbackNotice")}
                  </p>
                ) : null}
                <CitationChips citations={message.citations ?? []} idPrefix={message.id} onOpen={setSource} />
              </>
            )}
          </li>
        ))}
        {chat.loading ? (
          <li className="ask-typing" data-testid="typing" role="status">
            <span className="ask-dots" aria-hidden="true">
              <span />
              <span />
              <span />
            </span>
            <span className="sr-only">{t("widget.typing")}</span>
          </li>
        ) : null}
      </ol>
      {chat.error ? (
        <p role="alert" className="rag-error" data-testid="chat-error">
          {chat.error}
        </p>
      ) : null}
      <div className="ask-status">
        {chat.latencyMs !== null && lastMessage?.role === "assistant" ? (
          <span className="rag-muted" data-testid="latency">
            {t("page.latency", { ms: chat.latencyMs })}
          </span>
        ) : null}
        {last ? (
          <button
            type="button"
            className="ui-button"
            data-variant="ghost"
            onClick={() => {
              void navigator.clipboard?.writeText(last).then(() => setCopied(true));
            }}
          >
            {copied ? t("widget.copied") : t("widget.copy")}
          </button>
        ) : null}
      </div>
      <ChatFilters filters={chat.filters} onChange={chat.setFilters} formatDay={(day) => formatCalendarDate(day, locale)} />
      <form
        className="ask-compose"
        onSubmit={(event) => {
          event.preventDefault();
          void submit(query);
        }}
      >
        <label htmlFor="ask-query" className="sr-only">
          {t("page.question")}
        </label>
        <textarea
          id="ask-query"
          ref={input}
          rows={1}
          maxLength={2000}
          value={query}
          placeholder={t("page.placeholder")}
          onChange={(event) => {
            setQuery(event.target.value);
            grow(event.target);
          }}
          onKeyDown={onKeyDown}
          data-testid="ask-input"
        />
        <button type="submit" className="ui-button" disabled={chat.loading || !query.trim()}>
          {t("page.ask")}
        </button>
      </form>
      <SourceModal citation={source} orgId={orgId} onClose={() => setSource(null)} />
    </div>
  );
}
