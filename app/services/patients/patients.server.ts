import type { PatientSex } from "#app/db/schema.ts";
import { recordAudit } from "#app/services/orgs/audit.server.ts";
import { asActor, checkOrgId, type OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import { recordRead } from "#app/services/orgs/read-audit.server.ts";
import { checkPatientId, requireClinicalRole } from "#app/services/visits/access.server.ts";
import { visitErrors } from "#app/services/visits/errors.server.ts";
import { isCalendarDay } from "#app/services/visits/visits.server.ts";
import { isValidTimeZone, todayInZone } from "#app/utils/zoned-time.ts";
import { isoDate } from "./iso-date.ts";

/** A patient as the API lists it. */
export interface PatientSummary {
  id: string;
  display_name: string;
  date_of_birth: string | null;
  sex: PatientSex | null;
  external_id: string | null;
  created_at: string;
}

export interface PatientDetails extends PatientSummary {
  notes: string;
}

export interface NewPatient {
  display_name: string;
  date_of_birth?: string | null;
  sex?: PatientSex | null;
  external_id?: string | null;
  notes?: string;
}

type OrgArgs = OrgServiceArgs & { orgId: string };

const SEARCH_LIMIT_MAX = 200;

/** `like` treats % and _ as wildcards; a search for "50%" means the characters. */
function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * GET /api/patients?q=: the organisation's patients, by name (case-insensitive, any part of the
 * name) or exact external id; without q the most recently created. Owners, clinicians and staff.
 */
export function searchPatients(args: OrgArgs & { q?: string; limit?: number }): Promise<PatientSummary[]> {
  checkOrgId(args.orgId);
  const limit = Math.min(Math.max(args.limit ?? 50, 1), SEARCH_LIMIT_MAX);
  const q = args.q?.trim().toLowerCase() ?? "";
  return asActor(args, args.orgId, async (trx) => {
    await requireClinicalRole(trx, args.orgId, args.actor.userId);
    let query = trx
      .selectFrom("patients")
      .select(["id", "display_name", "date_of_birth", "sex", "external_id", "created_at"])
      .where("org_id", "=", args.orgId);
    if (q) {
      // Prefix matches first (they use patients_org_id_name_idx), then anywhere in the name.
      query = query.where((eb) =>
        eb.or([eb(eb.fn("lower", ["display_name"]), "like", `%${likeEscape(q)}%`), eb(eb.fn("lower", ["external_id"]), "=", q)]),
      );
      query = query.orderBy((eb) => eb(eb.fn("lower", ["display_name"]), "like", `${likeEscape(q)}%`), "desc");
      query = query.orderBy((eb) => eb.fn("lower", ["display_name"]));
    } else {
      query = query.orderBy("created_at", "desc");
    }
    const rows = await query.orderBy("id").limit(limit).execute();
    return rows.map((r) => ({ ...r, date_of_birth: isoDate(r.date_of_birth), created_at: r.created_at.toISOString() }));
  });
}

/** GET one patient (the visit API embeds it). */
export function getPatient(args: OrgArgs & { patientId: string }): Promise<PatientDetails> {
  checkOrgId(args.orgId);
  checkPatientId(args.patientId);
  return asActor(args, args.orgId, async (trx) => {
    await requireClinicalRole(trx, args.orgId, args.actor.userId);
    const row = await trx
      .selectFrom("patients")
      .select(["id", "display_name", "date_of_birth", "sex", "external_id", "notes", "created_at"])
      .where("org_id", "=", args.orgId)
      .where("id", "=", args.patientId)
      .executeTakeFirst();
    if (!row) throw visitErrors.patientNotFound();
    await recordRead(trx, args, { action: "patient.read", entity: "patient", entityId: row.id, patientId: row.id });
    return { ...row, date_of_birth: isoDate(row.date_of_birth), created_at: row.created_at.toISOString() };
  });
}

/** POST /api/patients → { id }. The external (PMS) id is unique per organisation (409). */
export function createPatient(args: OrgArgs & { patient: NewPatient; now?: Date }): Promise<{ id: string }> {
  checkOrgId(args.orgId);
  const birth = args.patient.date_of_birth ?? null;
  // Year 0000 or 99999 pass a YYYY-MM-DD pattern but not the database's date type (a 500 before):
  // a date of birth is a real day from 1900 on, and not after today in the organisation's zone.
  if (birth !== null && !isCalendarDay(birth)) throw visitErrors.invalidDateOfBirth();
  return asActor(args, args.orgId, async (trx) => {
    await requireClinicalRole(trx, args.orgId, args.actor.userId);
    if (birth !== null) {
      const org = await trx.selectFrom("organizations").select("timezone").where("id", "=", args.orgId).executeTakeFirst();
      const today = todayInZone(org && isValidTimeZone(org.timezone) ? org.timezone : "UTC", args.now ?? new Date());
      if (birth > today) throw visitErrors.invalidDateOfBirth();
    }
    const p = args.patient;
    const externalId = p.external_id?.trim() || null;
    // The partial unique index decides races between two creations with one external id.
    const inserted = await trx
      .insertInto("patients")
      .values({
        org_id: args.orgId,
        display_name: p.display_name.trim(),
        date_of_birth: p.date_of_birth ?? null,
        sex: p.sex ?? null,
        external_id: externalId,
        notes: p.notes ?? "",
        created_by: args.actor.userId,
      })
      .onConflict((oc) => oc.columns(["org_id", "external_id"]).where("external_id", "is not", null).doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!inserted) throw visitErrors.externalIdTaken();
    const { id } = inserted;
    // No name in the trail: admins read the audit log but no clinical data.
    await recordAudit(trx, {
      orgId: args.orgId,
      actorId: args.actor.userId,
      action: "patient.created",
      entity: "patient",
      entityId: id,
      details: {},
      meta: args.meta,
    });
    return { id };
  });
}
