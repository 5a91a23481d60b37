import { type RouterContextProvider, redirect } from "react-router";
import { withActor } from "#app/db/actor.server.ts";
import { NOTE_ROLES } from "#app/services/notes/access.server.ts";
import { listVisitNotes, type NoteSummary } from "#app/services/notes/notes.server.ts";
import { ORG_SWITCH_PARAM } from "#app/services/org-context/constants.ts";
import { requireOrg } from "#app/services/org-context/current-org.ts";
import { orgPageArgs } from "#app/services/org-context/page-args.server.ts";
import type { OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import { createPatient, type PatientSummary, searchPatients } from "#app/services/patients/patients.server.ts";
import { assertValidPage } from "#app/services/session/page-validity.server.ts";
import { CLINICIAN_ROLES } from "#app/services/visits/access.server.ts";
import { type RerunResult, rerunTranscription } from "#app/services/visits/rerun.server.ts";
import { editTranscript, getTranscriptHistory, type TranscriptEdit } from "#app/services/visits/transcript-versions.server.ts";
import type { TranscriptionView } from "#app/services/visits/transcripts.server.ts";
import { openVisitProgress } from "#app/services/visits/visit-events.server.ts";
import { createVisit, getVisit, listVisits, type VisitDetails, type VisitSummary } from "#app/services/visits/visits.server.ts";
import { isAppError } from "#app/utils/app-error.ts";
import { pageUrl } from "#app/utils/page-url.ts";

export type TranscribingPage =
  | { kind: "forbidden" }
  | {
      kind: "visit";
      visit: VisitDetails;
      orgId: string;
      userId: string;
      transcript: TranscriptPanel;
      /** Notes drafted from this visit (owners and clinicians; nobody else may read notes). */
      notes: NoteSummary[];
    }
  | { kind: "start"; patients: PatientSummary[]; visits: VisitSummary[] };

/** What the transcript view needs beyond GET /api/visits/:id's answer. */
export interface TranscriptPanel {
  /** How the newest version came to be: an engine's, an import or an edit. */
  source: TranscriptionView["source"] | null;
  /** The newest version that is not an edit, when the newest is one ("view original"). */
  original: Pick<TranscriptionView, "version" | "engine" | "text" | "segments"> | null;
  /** The running transcription's fraction done, when known. */
  progress: number | null;
  /** Owners and clinicians may ask for a new transcription. */
  canRerun: boolean;
}

/**
 * The organisation a visit belongs to, if the user may see it there: row-level security returns the
 * row only for organisations where they hold a clinical role, so this never reveals another tenant.
 */
async function visitOrgForUser(args: OrgServiceArgs, visitId: string): Promise<string | null> {
  const row = await withActor(args.db, { userId: args.actor.userId, orgId: null }, (trx) =>
    trx.selectFrom("visits").select("org_id").where("id", "=", visitId).executeTakeFirst(),
  );
  return row?.org_id ?? null;
}

/**
 * /transcribing: a visit when `visit_id` names one of the current organisation; a visit of another
 * of the user's organisations switches to it (ADR 7: redirect with `?org=`, the layout shows the
 * notice); anything else is the page-validity 404. Without `visit_id`: start a visit.
 */
export async function loadTranscribingPage(
  context: Readonly<RouterContextProvider>,
  request: Request,
  visitId: string | null,
): Promise<TranscribingPage> {
  const args = orgPageArgs(context, request);
  try {
    if (!visitId) {
      const [patients, visits] = await Promise.all([searchPatients({ ...args, limit: 100 }), listVisits({ ...args, limit: 20 })]);
      return { kind: "start", patients, visits };
    }
    const visit = await getVisit({ ...args, visitId });
    const role = requireOrg(context).role;
    const [history, progress, notes] = await Promise.all([
      getTranscriptHistory({ ...args, visitId }),
      openVisitProgress({ ...args, visitId }),
      NOTE_ROLES.includes(role) ? listVisitNotes({ ...args, visitId }) : [],
    ]);
    const { original } = history;
    const transcript: TranscriptPanel = {
      source: history.latest?.source ?? null,
      original: original
        ? { version: original.version, engine: original.engine, text: original.text, segments: original.segments }
        : null,
      progress: progress.initial.progress,
      canRerun: CLINICIAN_ROLES.includes(role),
    };
    return { kind: "visit", visit, orgId: args.orgId, userId: args.actor.userId, transcript, notes };
  } catch (error) {
    if (!isAppError(error)) throw error;
    if (error.status === 403) return { kind: "forbidden" };
    if (error.code !== "visit_not_found" || !visitId) throw error;
    const orgId = await visitOrgForUser(args, visitId);
    assertValidPage(orgId !== null && orgId !== args.orgId);
    const url = pageUrl(request);
    url.searchParams.set(ORG_SWITCH_PARAM, orgId ?? "");
    throw redirect(url.pathname + url.search);
  }
}

export interface StartVisitInput {
  patientId?: string;
  newPatientName?: string;
  title: string;
  language: "en" | "fr" | "es";
  templateId?: string;
}

/** The "start a visit" form: an existing or new patient, then the visit with the patient's consent. */
export async function startVisit(context: Readonly<RouterContextProvider>, request: Request, input: StartVisitInput) {
  const args = orgPageArgs(context, request);
  const patientId =
    input.patientId ?? (await createPatient({ ...args, patient: { display_name: input.newPatientName ?? "" } })).id;
  return createVisit({
    ...args,
    patientId,
    title: input.title,
    language: input.language,
    templateId: input.templateId ?? null,
    consent: true,
  });
}

/** The transcript view's "save" (issue 5 "editing with versions kept"): a new version, engine `edit`. */
export function saveTranscriptEdit(
  context: Readonly<RouterContextProvider>,
  request: Request,
  input: { visitId: string; edit: TranscriptEdit },
): Promise<{ id: string; version: number; unchanged: boolean }> {
  return editTranscript({ ...orgPageArgs(context, request), visitId: input.visitId, edit: input.edit });
}

/** The visit page's "transcribe again" (owners and clinicians). */
export function rerunVisit(context: Readonly<RouterContextProvider>, request: Request, visitId: string): Promise<RerunResult> {
  return rerunTranscription({ ...orgPageArgs(context, request), visitId });
}
