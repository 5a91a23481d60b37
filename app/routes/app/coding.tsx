import { useTranslation } from "react-i18next";
import { data, redirect } from "react-router";
import { z } from "zod";
import { AppPage } from "#app/components/app-page.tsx";
import { NoteEditor } from "#app/components/notes/note-editor.tsx";
import { NoteList } from "#app/components/notes/note-list.tsx";
import { localeFromPath, localizePath } from "#app/i18n/config.ts";
import { type CodingIntent, loadCodingPage, runCodingIntent } from "#app/services/notes/editor-page.server.ts";
import { requireOrg } from "#app/services/org-context/current-org.ts";
import { optionalIdParam } from "#app/services/session/page-validity.server.ts";
import codingCss from "#app/styles/coding.css?url";
import notesCss from "#app/styles/notes.css?url";
import { isAppError } from "#app/utils/app-error.ts";
import { pageUrl } from "#app/utils/page-url.ts";
import { readForm } from "#app/utils/read-form.server.ts";
import type { Route } from "./+types/coding";
import {
  AcknowledgeFormSchema,
  AmendFormSchema,
  GenerateFormSchema,
  NoteFormSchema,
  RateFormSchema,
  sectionsOfForm,
} from "./coding-schema.ts";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: notesCss },
  { rel: "stylesheet", href: codingCss },
];

// Issue 6 "The note editor": /coding?id={noteId} edits, signs and amends one note; /coding lists
// the organisation's recent notes. The "Generate note" form of /transcribing posts here too.
export async function loader({ context, request }: Route.LoaderArgs) {
  const noteId = optionalIdParam(pageUrl(request), "id");
  const page = await loadCodingPage(context, request, noteId);
  // Times print in the organisation's zone (a note of another organisation redirects there first).
  return page.kind === "forbidden" ? page : { ...page, timeZone: requireOrg(context).org.timezone };
}

function intentOf(form: FormData): CodingIntent {
  const intent = form.get("intent");
  if (intent === "generate") {
    const input = GenerateFormSchema.parse(Object.fromEntries(form));
    return { intent, visitId: input.visit_id, templateId: input.template_id, language: input.language };
  }
  const { note_id: noteId, sections } = NoteFormSchema.parse({ note_id: form.get("note_id"), sections: sectionsOfForm(form) });
  const regenerate = form.get("regenerate");
  if (typeof regenerate === "string" && regenerate) return { intent: "regenerate", noteId, sections, key: regenerate };
  if (intent === "sign") return { intent, noteId, sections };
  if (intent === "amend")
    return { intent, noteId, sections, reason: AmendFormSchema.parse({ reason: form.get("reason") }).reason };
  if (intent === "acknowledge") {
    const { check_id, reason } = AcknowledgeFormSchema.parse({
      check_id: form.get("check_id"),
      reason: form.get("reason") ?? undefined,
    });
    return { intent, noteId, checkId: check_id, reason };
  }
  if (intent === "rate") {
    const { rating, comment } = RateFormSchema.parse({ rating: form.get("rating"), comment: form.get("comment") ?? undefined });
    return { intent, noteId, rating, comment };
  }
  return { intent: "save", noteId, sections };
}

export async function action({ context, request }: Route.ActionArgs) {
  try {
    const noteId = await runCodingIntent(context, request, intentOf(await readForm(request)));
    throw redirect(`${localizePath("/coding", localeFromPath(pageUrl(request).pathname))}?id=${noteId}`);
  } catch (error) {
    if (error instanceof z.ZodError) {
      const message = error.issues[0]?.message ?? "";
      return data({ error: /^[a-z_]{1,60}$/.test(message) ? message : "invalid_input" }, { status: 400 });
    }
    if (isAppError(error) && error.status < 500) return data({ error: error.code }, { status: error.status });
    throw error;
  }
}

function Forbidden() {
  const { t } = useTranslation("notes");
  return <p role="alert">{t("errors.forbidden_role")}</p>;
}

function ListError({ error }: { error: string }) {
  const { t } = useTranslation("notes");
  return (
    <p role="alert" data-code={error}>
      {t(`errors.${error}`, { defaultValue: t("errors.invalid_input") })}
    </p>
  );
}

export default function Coding({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <AppPage page="coding">
      {loaderData.kind === "forbidden" ? <Forbidden /> : null}
      {loaderData.kind === "list" ? (
        <>
          {actionData?.error ? <ListError error={actionData.error} /> : null}
          <NoteList notes={loaderData.notes} timeZone={loaderData.timeZone} />
        </>
      ) : null}
      {loaderData.kind === "note" ? (
        <NoteEditor key={loaderData.note.id} page={loaderData} timeZone={loaderData.timeZone} error={actionData?.error} />
      ) : null}
    </AppPage>
  );
}
