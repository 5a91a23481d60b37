import { useTranslation } from "react-i18next";
import { data, redirect } from "react-router";
import { z } from "zod";
import { AppPage } from "#app/components/app-page.tsx";
import { GenerateNoteForm } from "#app/components/notes/generate-note-form.tsx";
import { TranscriptQualityBanner } from "#app/components/notes/transcript-quality-banner.tsx";
import { VisitNotes } from "#app/components/notes/visit-notes.tsx";
import { StartVisit } from "#app/components/visits/start-visit.tsx";
import { VisitView } from "#app/components/visits/visit-view.tsx";
import { localeFromPath, localizePath } from "#app/i18n/config.ts";
import { requireOrg } from "#app/services/org-context/current-org.ts";
import { optionalIdParam } from "#app/services/session/page-validity.server.ts";
import { loadTranscribingPage, rerunVisit, saveTranscriptEdit, startVisit } from "#app/services/transcribing/page.server.ts";
import { isAppError } from "#app/utils/app-error.ts";
import { pageUrl } from "#app/utils/page-url.ts";
import { readForm } from "#app/utils/read-form.server.ts";
import { INVALID_TEXT, isStorableText } from "#app/utils/storable-text.ts";
import type { Route } from "./+types/transcribing";
import { StartVisitSchema } from "./transcribing-schema.ts";

/** The transcript view's editor: one text per segment of the version it started from, or the whole text. */
const EditTranscriptSchema = z.object({
  visit_id: z.uuid({ error: "visit_not_found" }),
  base_version: z.coerce.number().int().min(1).max(100_000),
  segments: z.array(z.string().max(100_000).refine(isStorableText, { error: INVALID_TEXT })).max(100_000),
  text: z.string().max(2_000_000).refine(isStorableText, { error: INVALID_TEXT }).optional(),
});

const RerunSchema = z.object({ visit_id: z.uuid({ error: "visit_not_found" }) });

/** Issue 29: a visit whose note exists opens on the note (the transcript stays one link away). */
const NOTE_REVIEW_STATUSES = new Set(["generating", "draft", "signed", "amended"]);

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = pageUrl(request);
  const visitId = optionalIdParam(url, "visit_id");
  const page = await loadTranscribingPage(context, request, visitId);
  // Only the plain visit link: a citation (?r=, ?start=) or ?transcript=1 means the transcript itself.
  const plainVisitLink = [...url.searchParams.keys()].every((key) => key === "visit_id");
  if (page.kind === "visit" && plainVisitLink && page.visit.note && NOTE_REVIEW_STATUSES.has(page.visit.note.status)) {
    throw redirect(`${localizePath("/coding", localeFromPath(url.pathname))}?id=${page.visit.note.id}`);
  }
  // Times print in the organisation's zone.
  return page.kind === "forbidden" ? page : { ...page, timeZone: requireOrg(context).org.timezone };
}

/** The visit's page; `transcript` keeps the transcript view even when the visit has a note (issue 29). */
function visitPath(request: Request, visitId: string, transcript = false): string {
  const path = `${localizePath("/transcribing", localeFromPath(pageUrl(request).pathname))}?visit_id=${visitId}`;
  return transcript ? `${path}&transcript=1` : path;
}

/** Forms on this page carry an `intent`: start a visit (the default), edit its transcript, transcribe it again. */
async function runIntent(context: Route.ActionArgs["context"], request: Request, form: FormData): Promise<string> {
  const intent = form.get("intent") ?? "start";
  if (intent === "edit") {
    const input = EditTranscriptSchema.parse({
      visit_id: form.get("visit_id"),
      base_version: form.get("base_version"),
      segments: form.getAll("segment").filter((v) => typeof v === "string"),
      text: form.get("text") ?? undefined,
    });
    const edit = {
      baseVersion: input.base_version,
      segments: input.text === undefined ? input.segments : undefined,
      text: input.text,
    };
    await saveTranscriptEdit(context, request, { visitId: input.visit_id, edit });
    return visitPath(request, input.visit_id, true);
  }
  if (intent === "rerun") {
    const input = RerunSchema.parse({ visit_id: form.get("visit_id") });
    await rerunVisit(context, request, input.visit_id);
    return visitPath(request, input.visit_id, true);
  }
  const input = StartVisitSchema.parse(Object.fromEntries(form));
  const { id } = await startVisit(context, request, {
    patientId: input.patient_id,
    newPatientName: input.new_patient_name,
    title: input.title,
    language: input.language,
    templateId: input.template_id,
  });
  return visitPath(request, id);
}

export async function action({ context, request }: Route.ActionArgs) {
  try {
    throw redirect(await runIntent(context, request, await readForm(request)));
  } catch (error) {
    if (error instanceof z.ZodError) {
      // Schemas name their own codes (consent_required…); zod's sentences are not translation keys.
      const message = error.issues[0]?.message ?? "";
      return data({ error: /^[a-z_]{1,60}$/.test(message) ? message : "invalid_input" }, { status: 400 });
    }
    if (isAppError(error) && error.status < 500) return data({ error: error.code }, { status: error.status });
    throw error;
  }
}

/** Admins manage the organisation without seeing clinical data (docs/permissions.md). */
function Forbidden() {
  const { t } = useTranslation("app");
  return <p role="alert">{t("visits.errors.forbidden_role")}</p>;
}

export default function Transcribing({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <AppPage page="transcribing">
      {loaderData.kind === "forbidden" ? <Forbidden /> : null}
      {loaderData.kind === "start" ? (
        <StartVisit patients={loaderData.patients} visits={loaderData.visits} error={actionData?.error} />
      ) : null}
      {loaderData.kind === "visit" ? (
        <VisitView
          visit={loaderData.visit}
          orgId={loaderData.orgId}
          userId={loaderData.userId}
          transcript={loaderData.transcript}
          error={actionData?.error}
        />
      ) : null}
      {/* Issue 27: a transcript that is not good says so, with what to do. */}
      {loaderData.kind === "visit" ? <TranscriptQualityBanner quality={loaderData.visit.transcription?.quality ?? null} /> : null}
      {/* Issue 6: owners and clinicians (canRerun's roles, the notes' roles) draft a note from the transcript. */}
      {loaderData.kind === "visit" ? <VisitNotes notes={loaderData.notes} timeZone={loaderData.timeZone} /> : null}
      {loaderData.kind === "visit" && loaderData.visit.transcription && loaderData.transcript.canRerun ? (
        <GenerateNoteForm visitId={loaderData.visit.id} orgId={loaderData.orgId} language={loaderData.visit.language} />
      ) : null}
    </AppPage>
  );
}
