import { resources } from "#app/i18n/resources.server.ts";
import { asActor, checkOrgId, type OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import { zonedDateTime } from "#app/utils/zoned-time.ts";
import { checkNoteId, requireNoteRole } from "../access.server.ts";
import { loadNote, loadVersions, noteView } from "../note-rows.server.ts";
import { noteBlocks } from "../render.ts";
import { type PdfLine, renderPdf } from "./pdf-writer.server.ts";

type Labels = (typeof resources)["en"]["notes"]["pdf"];

/**
 * GET /api/notes/:id/pdf: the note as a PDF in the note's own language (labels included — the
 * document is clinical content, whatever the reader's interface language), with its status, and
 * once signed the signer's time and the content SHA-256 a reader can check.
 */
export async function notePdf(
  args: OrgServiceArgs & { orgId: string; noteId: string },
): Promise<{ filename: string; bytes: Uint8Array<ArrayBuffer> }> {
  checkOrgId(args.orgId);
  checkNoteId(args.noteId);
  const { note, visit, timeZone } = await asActor(args, args.orgId, async (trx) => {
    await requireNoteRole(trx, args.orgId, args.actor.userId);
    const row = await loadNote(trx, args.orgId, args.noteId);
    const view = noteView(row, await loadVersions(trx, args.orgId, args.noteId));
    const info = await trx
      .selectFrom("visits as v")
      .innerJoin("patients as p", (j) => j.onRef("p.org_id", "=", "v.org_id").onRef("p.id", "=", "v.patient_id"))
      .select(["v.title", "v.created_at", "p.display_name"])
      .where("v.org_id", "=", args.orgId)
      .where("v.id", "=", row.visit_id)
      .executeTakeFirstOrThrow();
    const org = await trx.selectFrom("organizations").select("timezone").where("id", "=", args.orgId).executeTakeFirstOrThrow();
    return { note: view, visit: info, timeZone: org.timezone };
  });
  const labels: Labels = resources[note.language].notes.pdf;
  // Times on the organisation's clock, named, so the printed record reads as the practice lived it.
  const date = (iso: string | Date) => `${zonedDateTime(iso, timeZone)} ${timeZone}`;
  const lines: PdfLine[] = [
    { text: note.template_name, bold: true, size: 16 },
    { text: `${labels.patient}: ${visit.display_name}`, gap: 6 },
    { text: `${labels.visit}: ${visit.title ? `${visit.title} — ` : ""}${date(visit.created_at)}` },
    { text: `${labels.status}: ${labels.statuses[note.status]}` },
  ];
  for (const block of noteBlocks(note.sections, note.headers)) {
    if (block.title) lines.push({ text: block.title, bold: true, size: 12, gap: 12 });
    for (const line of block.text ? block.text.split("\n") : []) {
      lines.push({ text: line.replace(/^\s*-\s+/, "• "), ...(block.title ? {} : { gap: 12 }) });
    }
  }
  const signed = note.versions.filter((v) => v.kind !== "draft_edit");
  if (signed.length && note.content_hash) {
    lines.push({ text: labels.signature, bold: true, size: 12, gap: 16 });
    for (const v of signed) {
      const what = v.kind === "signed" ? labels.signed : labels.amended;
      lines.push({ text: `${what} ${date(v.created_at)}${v.amendment_reason ? ` — ${v.amendment_reason}` : ""}`, size: 9.5 });
    }
    lines.push({ text: `${labels.hash}: ${note.content_hash}`, size: 9 });
  } else {
    lines.push({ text: labels.unsigned, bold: true, gap: 16 });
  }
  return { filename: `note-${note.id}.pdf`, bytes: renderPdf(lines, { title: note.template_name }) };
}
