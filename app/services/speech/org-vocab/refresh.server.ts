import { sql } from "kysely";
import type { Database } from "#app/db/database.server.ts";
import { runCpu } from "#app/services/cpu/pool.server.ts";
import { pronounce } from "./g2p.server.ts";
import { type OrgVocabulary, vocabularyVersion } from "./model-cache.server.ts";
import { type BaseVocabulary, jsonStrings, selectTerms, type VocabularyTerm } from "./terms.ts";

/**
 * The refresh job's work (ADR 0032): the organisation's texts → its terms (with pronunciations for
 * words the dictionary lacks) → its org_vocabulary row. Runs on the owner connection, like the
 * other jobs, and every statement is filtered by the job's organisation: one organisation's text
 * never reaches another's row.
 */

/** Signed notes read per refresh, newest first: enough for a practice's drugs, bounded in time. */
const MAX_NOTES = 1000;
const UUID_OR_DATE = /^(?:[0-9a-f]{8}-[0-9a-f-]{27}|\d{4}-\d\d-\d\dT.*)$/i;

export interface RefreshResult {
  version: string;
  terms: number;
  changed: boolean;
}

export async function refreshOrgVocabulary(
  db: Database,
  orgId: string,
  options: { base?: BaseVocabulary; signal?: AbortSignal } = {},
): Promise<RefreshResult | null> {
  const sources = await db.kysely.transaction().execute(async (trx) => {
    const org = await trx.selectFrom("organizations").select("id").where("id", "=", orgId).executeTakeFirst();
    if (!org) return null;
    const names = await sql<{ name: string | null }>`
      select u.raw_user_meta_data ->> 'full_name' as name
        from public.org_members m join auth.users u on u.id = m.user_id
       where m.org_id = ${orgId} and m.role in ('owner', 'clinician')`.execute(trx);
    const templates = await trx
      .selectFrom("note_templates")
      .select(["name", "description", "sections"])
      .where("org_id", "=", orgId)
      .where("language", "=", "en")
      .where("archived_at", "is", null)
      .execute();
    const notes = await trx
      .selectFrom("notes")
      .select("content")
      .where("org_id", "=", orgId)
      .where("language", "=", "en")
      .where("status", "in", ["signed", "amended"])
      .orderBy("signed_at", "desc")
      .limit(MAX_NOTES)
      .execute();
    const row = await trx
      .selectFrom("org_vocabulary")
      .select(["custom_terms", "version"])
      .where("org_id", "=", orgId)
      .executeTakeFirst();
    return {
      custom: row?.custom_terms ?? [],
      previousVersion: row?.version ?? null,
      clinicianNames: names.rows.map((r) => r.name ?? "").filter(Boolean),
      templateTexts: templates.flatMap((t) => [t.name, t.description, ...textsOf(t.sections)]),
      noteTexts: notes.flatMap((n) => textsOf(n.content)),
    };
  });
  if (!sources) return null;

  // Scanning every signed note's text (and parsing the base model, 3 s, once) runs on a worker
  // thread (issue 25: a practice's 800 kB notes held the event loop); a given base stays inline.
  const base = options.base;
  const selected = base
    ? selectTerms(sources, base).map((term) => ({ term, known: base.has(term.word) }))
    : await runCpu("vocabularyTerms", sources, options.signal ? { signal: options.signal } : {});
  const missing = selected.filter((t) => !t.known).map((t) => t.term.word);
  const phones = await pronounce(missing, { signal: options.signal });
  // A word neither the dictionary nor espeak-ng can pronounce cannot be decoded: leave it out.
  const terms: VocabularyTerm[] = selected.flatMap(({ term, known }) => {
    if (known) return [term];
    const p = phones.get(term.word);
    return p ? [{ ...term, phones: p }] : [];
  });
  const version = terms.length ? vocabularyVersion(terms) : "";
  const changed = version !== sources.previousVersion;
  if (changed || sources.previousVersion === null) {
    await db.kysely
      .insertInto("org_vocabulary")
      .values({ org_id: orgId, terms: JSON.stringify(terms), version, refreshed_at: new Date() })
      .onConflict((oc) => oc.column("org_id").doUpdateSet({ terms: JSON.stringify(terms), version, refreshed_at: new Date() }))
      .execute();
  } else {
    await db.kysely.updateTable("org_vocabulary").set({ refreshed_at: new Date() }).where("org_id", "=", orgId).execute();
  }
  return { version, terms: terms.length, changed };
}

/** The vocabulary the transcription job hands its engine; null before the first refresh or when empty. */
export async function loadOrgVocabulary(db: Database, orgId: string): Promise<OrgVocabulary | null> {
  const row = await db.kysely
    .selectFrom("org_vocabulary")
    .select(["terms", "version"])
    .where("org_id", "=", orgId)
    .executeTakeFirst();
  if (!row?.version || !Array.isArray(row.terms) || row.terms.length === 0) return null;
  return { orgId, version: row.version, terms: row.terms as VocabularyTerm[] };
}

/** Sentences of a note's content or a template's sections, without ids, keys and timestamps. */
function textsOf(value: unknown): string[] {
  return jsonStrings(value).filter((s) => s.includes(" ") || !UUID_OR_DATE.test(s));
}
