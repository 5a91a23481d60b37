import { sql } from "kysely";
import { NOTE_ROLES } from "#app/services/notes/access.server.ts";
import { asActor, checkOrgId, type OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import { requireClinicalRole } from "#app/services/visits/access.server.ts";
import { isoDate } from "./iso-date.ts";

// Issue 29 "Patients": the /patients table — one page of the organisation's patients, sorted and
// searched in SQL, with the last visit day and the open drafts of each. Owners, clinicians and
// staff (docs/permissions.md); staff may not read notes, so their table has no drafts column.

export const PATIENT_TABLE_PAGE_SIZE = 25;
export const PATIENT_TABLE_SORTS = ["name", "date_of_birth", "external_id", "last_visit", "open_drafts"] as const;
export type PatientTableSort = (typeof PATIENT_TABLE_SORTS)[number];
export type SortDir = "asc" | "desc";

export interface PatientTableRow {
  id: string;
  display_name: string;
  date_of_birth: string | null;
  external_id: string | null;
  /** The clinical day (visits.visit_date) of the latest visit, YYYY-MM-DD. */
  last_visit: string | null;
  /** Notes drafted and not yet signed; null when the reader may not read notes (staff). */
  open_drafts: number | null;
}

export interface PatientTablePage {
  rows: PatientTableRow[];
  page: number;
  pageCount: number;
  total: number;
  sort: PatientTableSort;
  dir: SortDir;
  canSeeDrafts: boolean;
}

type Args = OrgServiceArgs & { orgId: string; q?: string; sort?: PatientTableSort; dir?: SortDir; page?: number };

const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function calendarDate(q: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(q);
  if (!m) return null;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]) ? q : null;
}

/**
 * The ORDER BY of each sort, always ending on the name then the id so pages never overlap; empty
 * values (no date of birth, no visit) go last whichever way the column is sorted.
 */
function orderBy(sort: PatientTableSort, dir: SortDir) {
  const d = sql.raw(dir === "desc" ? "desc" : "asc");
  // Ties under another column read alphabetically whichever way that column is sorted.
  const name = sql`lower(p.display_name) asc, p.id`;
  switch (sort) {
    case "date_of_birth":
      return sql`p.date_of_birth ${d} nulls last, ${name}`;
    case "external_id":
      return sql`lower(p.external_id) ${d} nulls last, ${name}`;
    case "last_visit":
      return sql`last_visit ${d} nulls last, ${name}`;
    case "open_drafts":
      return sql`open_drafts ${d}, ${name}`;
    default:
      return sql`lower(p.display_name) ${d}, p.id`;
  }
}

/**
 * One page of the table in two steps, so the per-patient figures are computed for the page's 25
 * rows only, at any depth: the `page` CTE sorts the matching patients (joined to the figure being
 * sorted by, aggregated once over the organisation's visits or open drafts) and keeps one page;
 * the outer query reads the figures of those rows through the (org_id, patient_id …) indexes.
 */
export function listPatientTable(args: Args): Promise<PatientTablePage> {
  checkOrgId(args.orgId);
  const q = (args.q ?? "").trim().toLowerCase().slice(0, 200);
  const dir: SortDir = args.dir === "desc" ? "desc" : "asc";
  return asActor(args, args.orgId, async (trx) => {
    const role = await requireClinicalRole(trx, args.orgId, args.actor.userId);
    const canSeeDrafts = NOTE_ROLES.includes(role);
    const requested = args.sort ?? "name";
    const sort: PatientTableSort = requested === "open_drafts" && !canSeeDrafts ? "name" : requested;
    const date = q ? calendarDate(q) : null;
    const pattern = likeEscape(q);
    const filter = q
      ? sql`and (lower(p.display_name) like ${`%${pattern}%`} or lower(p.external_id) like ${`${pattern}%`}
               ${date ? sql`or p.date_of_birth = ${date}::date` : sql``})`
      : sql``;
    const counted = await sql<{ total: string }>`
      select count(*)::text as total from public.patients p where p.org_id = ${args.orgId} ${filter}`.execute(trx);
    const total = Number(counted.rows[0]?.total ?? 0);
    const pageCount = Math.max(1, Math.ceil(total / PATIENT_TABLE_PAGE_SIZE));
    const page = Math.min(Math.max(Math.trunc(args.page ?? 1) || 1, 1), pageCount);
    const figure =
      sort === "last_visit"
        ? sql`left join (select v.patient_id, max(v.visit_date) as last_visit from public.visits v
                         where v.org_id = ${args.orgId} group by v.patient_id) f on f.patient_id = p.id`
        : sort === "open_drafts"
          ? sql`left join (select n.patient_id, count(*)::int as open_drafts from public.notes n
                           where n.org_id = ${args.orgId} and n.status = 'draft' group by n.patient_id) f on f.patient_id = p.id`
          : sql``;
    const figureColumn =
      sort === "last_visit"
        ? sql`f.last_visit`
        : sort === "open_drafts"
          ? sql`coalesce(f.open_drafts, 0) as open_drafts`
          : sql`null as unused`;
    const drafts = canSeeDrafts
      ? sql`(select count(*)::int from public.notes n
             where n.org_id = ${args.orgId} and n.patient_id = p.id and n.status = 'draft')`
      : sql`null::int`;
    const { rows } = await sql<{
      id: string;
      display_name: string;
      date_of_birth: Date | string | null;
      external_id: string | null;
      last_visit: Date | string | null;
      open_drafts: number | null;
    }>`
      with page as (
        select p.id, p.display_name, p.date_of_birth, p.external_id, ${figureColumn}
        from public.patients p ${figure}
        where p.org_id = ${args.orgId} ${filter}
        order by ${orderBy(sort, dir)}
        limit ${PATIENT_TABLE_PAGE_SIZE} offset ${(page - 1) * PATIENT_TABLE_PAGE_SIZE}
      )
      select p.id, p.display_name, p.date_of_birth, p.external_id,
        (select max(v.visit_date) from public.visits v where v.org_id = ${args.orgId} and v.patient_id = p.id) as last_visit,
        ${drafts} as open_drafts
      from page p
      order by ${orderBy(sort, dir)}`.execute(trx);
    return {
      rows: rows.map((r) => ({
        id: r.id,
        display_name: r.display_name,
        date_of_birth: isoDate(r.date_of_birth),
        external_id: r.external_id,
        last_visit: isoDate(r.last_visit),
        open_drafts: r.open_drafts,
      })),
      page,
      pageCount,
      total,
      sort,
      dir,
      canSeeDrafts,
    };
  });
}
