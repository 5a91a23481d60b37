import { createHash } from "node:crypto";
import { recordAudit } from "#app/services/orgs/audit.server.ts";
import {
  asActor,
  checkOrgId,
  MANAGER_ROLES,
  type OrgServiceArgs,
  requireMemberRole,
  requireRole,
} from "#app/services/orgs/context.server.ts";
import { AppError } from "#app/utils/app-error.ts";
import { type ImportRow, type ImportSystem, parseCodeFile, type RowError } from "./parse.ts";

export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;

export class ImportRowsError extends AppError {
  readonly report: { rows: number; errors: RowError[] };
  constructor(rows: number, errors: RowError[]) {
    super(422, "invalid_rows", `${errors.length} row(s) cannot be imported: nothing was imported`);
    this.report = { rows, errors: errors.slice(0, 500) };
  }
}

const fatalErrors = {
  invalid_file: () => new AppError(400, "invalid_file", "The file is not a UTF-8 text code file (CSV or tab-separated)"),
  empty_file: () => new AppError(400, "empty_file", "The file has no code rows"),
  too_many_rows: () => new AppError(413, "too_many_rows", "The file has more than 100 000 rows"),
};

export interface ImportPreview {
  system: ImportSystem;
  version: string;
  rows: number;
  errors: RowError[];
  sample: ImportRow[];
}

/**
 * POST /api/code-systems/import (owners and admins): `preview` reports rows, per-row errors and a
 * sample without writing; otherwise a file with any bad row is refused whole (422 invalid_rows with
 * the report), and a good one becomes the organisation's active version of that system in one
 * transaction that deactivates the previous one (never a moment without a code set).
 */
export async function importCodeSystem(
  args: OrgServiceArgs & { orgId: string; system: ImportSystem; version: string; file: Uint8Array; preview: boolean },
): Promise<ImportPreview | { id: string; system: ImportSystem; version: string; rows: number; replaced: string | null }> {
  checkOrgId(args.orgId);
  const parsed = parseCodeFile(args.system, args.file);
  return asActor(args, args.orgId, async (trx) => {
    requireRole(await requireMemberRole(trx, args.orgId, args.actor.userId), MANAGER_ROLES);
    if (!parsed.ok) throw fatalErrors[parsed.fatal]();
    if (args.preview) {
      return {
        system: args.system,
        version: args.version,
        rows: parsed.rows.length,
        errors: parsed.errors.slice(0, 500),
        sample: parsed.rows.slice(0, 5),
      };
    }
    if (parsed.errors.length > 0) throw new ImportRowsError(parsed.rows.length, parsed.errors);
    const previous = await trx
      .updateTable("org_code_systems")
      .set({ active: false })
      .where("org_id", "=", args.orgId)
      .where("system", "=", args.system)
      .where("active", "=", true)
      .returning("id")
      .executeTakeFirst();
    const created = await trx
      .insertInto("org_code_systems")
      .values({
        org_id: args.orgId,
        system: args.system,
        version: args.version,
        row_count: parsed.rows.length,
        file_sha256: createHash("sha256").update(args.file).digest("hex"),
        imported_by: args.actor.userId,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    for (let i = 0; i < parsed.rows.length; i += 1000) {
      await trx
        .insertInto("org_codes")
        .values(
          parsed.rows.slice(i, i + 1000).map((r) => ({
            org_id: args.orgId,
            code_system_id: created.id,
            code: r.code,
            short_descriptor: r.short,
            long_descriptor: r.long,
          })),
        )
        .execute();
    }
    await recordAudit(trx, {
      orgId: args.orgId,
      actorId: args.actor.userId,
      action: "code_system.imported",
      entity: "code_system",
      entityId: created.id,
      details: { system: args.system, version: args.version, rows: parsed.rows.length, replaced: previous?.id ?? null },
      meta: args.meta,
    });
    return {
      id: created.id,
      system: args.system,
      version: args.version,
      rows: parsed.rows.length,
      replaced: previous?.id ?? null,
    };
  });
}
