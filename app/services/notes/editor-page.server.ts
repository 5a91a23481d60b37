import { type RouterContextProvider, redirect } from "react-router";
import { withActor } from "#app/db/actor.server.ts";
import type { VisitLanguage } from "#app/db/schema.ts";
import { ORG_SWITCH_PARAM } from "#app/services/org-context/constants.ts";
import { requireOrg } from "#app/services/org-context/current-org.ts";
import { orgPageArgs } from "#app/services/org-context/page-args.server.ts";
import type { OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import { assertValidPage } from "#app/services/session/page-validity.server.ts";
import type { TranscriptQuality } from "#app/services/visits/transcript-quality.ts";
import { getVisit } from "#app/services/visits/visits.server.ts";
import { isAppError } from "#app/utils/app-error.ts";
import { pageUrl } from "#app/utils/page-url.ts";
import { SIGNING_ROLES } from "./access.server.ts";
import { acknowledgeCheck } from "./checks/acknowledge.server.ts";
import type { TranscriptPiece } from "./model.ts";
import type { NoteView } from "./note-rows.server.ts";
import {
  createNote,
  getNote,
  listRecentNotes,
  type RecentNote,
  rateNote,
  regenerateSection,
  type SectionText,
  saveDraft,
} from "./notes.server.ts";
import { amendNote, signNote } from "./sign.server.ts";
import { transcriptPieces } from "./transcript-pieces.ts";

/** What /coding shows: the organisation's recent notes, or one note in the editor. */
export type CodingPage =
  | { kind: "forbidden" }
  | { kind: "list"; notes: RecentNote[] }
  | {
      kind: "note";
      note: NoteView;
      orgId: string;
      patientName: string;
      visitTitle: string;
      /** The pieces the engine read: evidence times refer to them. */
      transcript: TranscriptPiece[];
      audioUrl: string | null;
      canSign: boolean;
      /** Issue 27: how far the visit's transcript can be trusted (null without one). */
      transcriptQuality: TranscriptQuality | null;
    };

/** The organisation of a note the user may open (row-level security shows it only where they are an owner or clinician). */
async function noteOrgForUser(args: OrgServiceArgs, noteId: string): Promise<string | null> {
  const row = await withActor(args.db, { userId: args.actor.userId, orgId: null }, (trx) =>
    trx.selectFrom("notes").select("org_id").where("id", "=", noteId).executeTakeFirst(),
  );
  return row?.org_id ?? null;
}

/**
 * /coding?id=: the note when it is the current organisation's; a note of another of the user's
 * organisations switches to it (ADR 7: redirect with `?org=`); anything else is the
 * page-validity 404, as /transcribing?visit_id= does. Without id: the recent notes.
 */
export async function loadCodingPage(
  context: Readonly<RouterContextProvider>,
  request: Request,
  noteId: string | null,
): Promise<CodingPage> {
  const args = orgPageArgs(context, request);
  try {
    if (!noteId) return { kind: "list", notes: await listRecentNotes({ ...args, limit: 50 }) };
    const note = await getNote({ ...args, noteId });
    const visit = await getVisit({ ...args, visitId: note.visit_id });
    const audible = visit.audio.sha256 !== null;
    return {
      kind: "note",
      note,
      orgId: args.orgId,
      patientName: visit.patient.display_name,
      visitTitle: visit.title,
      transcript: visit.transcription ? transcriptPieces(visit.transcription) : [],
      audioUrl: audible ? `/api/visits/${visit.id}/audio/file?org_id=${encodeURIComponent(args.orgId)}` : null,
      canSign: SIGNING_ROLES.includes(requireOrg(context).role),
      transcriptQuality: visit.transcription?.quality ?? null,
    };
  } catch (error) {
    if (!isAppError(error)) throw error;
    if (error.status === 403) return { kind: "forbidden" };
    if (error.code !== "note_not_found" || !noteId) throw error;
    const orgId = await noteOrgForUser(args, noteId);
    assertValidPage(orgId !== null && orgId !== args.orgId);
    const url = pageUrl(request);
    url.searchParams.set(ORG_SWITCH_PARAM, orgId ?? "");
    throw redirect(url.pathname + url.search);
  }
}

/** The editor's form posts, each one service call (saving first, so a click never loses typed text). */
export type CodingIntent =
  | { intent: "generate"; visitId: string; templateId: string; language?: VisitLanguage }
  | { intent: "save"; noteId: string; sections: SectionText[] }
  | { intent: "regenerate"; noteId: string; sections: SectionText[]; key: string }
  | { intent: "sign"; noteId: string; sections: SectionText[] }
  | { intent: "amend"; noteId: string; sections: SectionText[]; reason: string }
  | { intent: "rate"; noteId: string; rating: number; comment: string | null }
  | { intent: "acknowledge"; noteId: string; checkId: string; reason: string | null };

/** Runs an intent; returns the note to show next. */
export async function runCodingIntent(
  context: Readonly<RouterContextProvider>,
  request: Request,
  input: CodingIntent,
): Promise<string> {
  const args = orgPageArgs(context, request);
  switch (input.intent) {
    case "generate":
      return (await createNote({ ...args, visitId: input.visitId, templateId: input.templateId, language: input.language })).id;
    case "save":
      await saveDraft({ ...args, noteId: input.noteId, sections: input.sections });
      return input.noteId;
    case "regenerate":
      if (input.sections.length) await saveDraft({ ...args, noteId: input.noteId, sections: input.sections });
      await regenerateSection({ ...args, noteId: input.noteId, key: input.key });
      return input.noteId;
    case "sign":
      if (input.sections.length) await saveDraft({ ...args, noteId: input.noteId, sections: input.sections });
      await signNote({ ...args, noteId: input.noteId });
      return input.noteId;
    case "amend":
      await amendNote({ ...args, noteId: input.noteId, sections: input.sections, reason: input.reason });
      return input.noteId;
    case "rate":
      await rateNote({ ...args, noteId: input.noteId, rating: input.rating, comment: input.comment });
      return input.noteId;
    case "acknowledge":
      await acknowledgeCheck({ ...args, noteId: input.noteId, checkId: input.checkId, reason: input.reason });
      return input.noteId;
  }
}
