import { resources } from "#app/i18n/resources.server.ts";
import { runCpu } from "#app/services/cpu/pool.server.ts";
import { asActor, checkOrgId, type OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import { recordRead } from "#app/services/orgs/read-audit.server.ts";
import { zonedDateTime } from "#app/utils/zoned-time.ts";
import { checkNoteId, requireNoteRole } from "../access.server.ts";
import type { NoteCheck } from "../checks/checks.server.ts";
import { loadNote, loadVersions, noteView } from "../note-rows.server.ts";
import { noteBlocks } from "../render.ts";
import type { PdfBlock } from "./pdf-document.server.ts";

type Labels = (typeof resources)["en"]["notes"]["pdf"];

/**
 * GET /api/notes/:id/pdf: the note as a PDF in the note's own language (labels included — the
 * document is clinical content, whatever the reader's interface language), with its status, and
 * once signed the signer's time and the content SHA-256 a reader can check; the practice's name heads
 * every page and each footer reads "Page n of m".
 */
export async function notePdf(
  args: OrgServiceArgs & { orgId: string; noteId: string },
): Promise<{ filename: string; bytes: Uint8Array<ArrayBuffer> }> {
  checkOrgId(args.orgId);
  checkNoteId(args.noteId);
  const { note, visit, timeZone, practice } = await asActor(args, args.orgId, async (trx) => {
    await requireNoteRole(trx, args.orgId, args.actor.userId);
    const row = await loadNote(trx, args.orgId, args.noteId);
    await recordRead(trx, args, { action: "note.pdf", entity: "note", entityId: row.id, visitId: row.visit_id });
    const view = noteView(row, await loadVersions(trx, args.orgId, args.noteId));
    const info = await trx
      .selectFrom("visits as v")
      .innerJoin("patients as p", (j) => j.onRef("p.org_id", "=", "v.org_id").onRef("p.id", "=", "v.patient_id"))
      .select(["v.title", "v.created_at", "p.display_name"])
      .where("v.org_id", "=", args.orgId)
      .where("v.id", "=", row.visit_id)
      .executeTakeFirstOrThrow();
    const org = await trx
      .selectFrom("organizations")
      .select(["name", "timezone"])
      .where("id", "=", args.orgId)
      .executeTakeFirstOrThrow();
    return { note: view, visit: info, timeZone: org.timezone, practice: org.name };
  });
  const labels: Labels = resources[note.language].notes.pdf;
  // Times on the organisation's clock, named, so the printed record reads as the practice lived it.
  const date = (iso: string | Date) => `${zonedDateTime(iso, timeZone)} ${timeZone}`;
  const blocks: PdfBlock[] = noteBlocks(note.sections, note.headers).map((block) => ({
    ...(block.title ? { title: block.title } : {}),
    lines: block.text ? block.text.split("\n") : [],
  }));
  const signed = note.versions.filter((v) => v.kind !== "draft_edit");
  // Issue 27: the signed record keeps the checks acknowledged at the signature, and who acknowledged them.
  const acknowledged = acknowledgedBlock(signed.find((v) => v.kind === "signed")?.checks ?? [], note.language, date);
  if (acknowledged) blocks.push(acknowledged);
  const signature =
    signed.length && note.content_hash
      ? {
          title: labels.signature,
          lines: signed.map(
            (v) =>
              `${v.kind === "signed" ? labels.signed : labels.amended} ${date(v.created_at)}${v.amendment_reason ? ` — ${v.amendment_reason}` : ""}`,
          ),
          hash: `${labels.hash}: ${note.content_hash}`,
        }
      : { unsigned: labels.unsigned };
  // Laid out on a worker thread (issue 25: a 40 × 20,000-character note took 16 s of the event loop).
  const bytes = await runCpu("notePdf", {
    practice,
    title: note.template_name,
    language: note.language,
    facts: [
      { label: labels.patient, value: visit.display_name },
      { label: labels.visit, value: `${visit.title ? `${visit.title} — ` : ""}${date(visit.created_at)}` },
      {
        label: labels.status,
        value: labels.statuses[note.status],
        ...(note.status === "signed" || note.status === "amended" ? { tone: "ok" as const } : { tone: "warn" as const }),
      },
    ],
    blocks,
    signature,
    pageLabel: resources[note.language].ui.pdf.page,
  });
  return {
    filename: `note-${note.id}.pdf`,
    bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) as Uint8Array<ArrayBuffer>,
  };
}

function acknowledgedBlock(
  checks: readonly NoteCheck[],
  language: keyof typeof resources,
  date: (iso: string) => string,
): PdfBlock | null {
  const labels = resources[language].checks;
  const acknowledged = checks.filter((c) => c.status === "acknowledged");
  if (!acknowledged.length) return null;
  const codes = labels.codes as Record<string, Record<string, string>>;
  const kinds = labels.kinds as Record<string, string>;
  return {
    title: (acknowledged.length === 1 ? labels.acknowledged.title_one : labels.acknowledged.title_other).replace(
      "{{count}}",
      String(acknowledged.length),
    ),
    lines: acknowledged.map((c) => {
      const what = codes[c.kind]?.[c.code] ?? kinds[c.kind] ?? c.kind;
      const by = labels.acknowledged.by
        .replace("{{name}}", c.resolved_by_name ?? labels.acknowledged.someone)
        .replace("{{date}}", c.resolved_at ? date(c.resolved_at) : "");
      return `${kinds[c.kind] ?? c.kind}: ${what}${c.sentence ? ` "${c.sentence}"` : ""} — ${by}${c.reason ? ` — ${c.reason}` : ""}`;
    }),
  };
}
