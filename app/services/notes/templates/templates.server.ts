import type { ActorTransaction } from "#app/db/actor.server.ts";
import type { OrgRole } from "#app/db/schema.ts";
import { recordAudit } from "#app/services/orgs/audit.server.ts";
import { asActor, checkOrgId, MANAGER_ROLES, type OrgServiceArgs, requireMemberRole } from "#app/services/orgs/context.server.ts";
import { orgErrors } from "#app/services/orgs/errors.server.ts";
import { queueVocabularyRefresh } from "#app/services/speech/org-vocab/jobs.server.ts";
import type { NoteLanguage, NoteTemplate } from "../model.ts";
import { getBuiltinTemplate, isBuiltinTemplateId, listBuiltinTemplates } from "./builtin/index.ts";
import { templateErrors } from "./errors.server.ts";
import { loadTemplateRow, rowToTemplate, sectionsJson, type TemplateRow } from "./rows.server.ts";
import {
  normalizeSections,
  type TemplateContent,
  TemplateContentSchema,
  type TemplateDocument,
  TemplateDocumentSchema,
  templateDocument,
  validateTemplate,
} from "./template-schema.ts";

type OrgArgs = OrgServiceArgs & { orgId: string };

/** builtin: the code library; organization: shared by the practice; personal: one member's own. */
export type TemplateScope = "builtin" | "organization" | "personal";

export interface TemplateSummary {
  id: string;
  name: string;
  language: NoteLanguage;
  description: string;
  scope: TemplateScope;
  based_on: string | null;
  section_count: number;
  /** The actor may change it in place (a member's edit of an organisation template makes a copy instead). */
  editable_in_place: boolean;
  updated_at: string | null;
}

export interface TemplateDetails extends TemplateSummary {
  sections: NoteTemplate["sections"];
}

const isManager = (role: OrgRole) => MANAGER_ROLES.includes(role);

function summaryOf(template: NoteTemplate, scope: TemplateScope, extra: Partial<TemplateSummary>): TemplateDetails {
  return {
    id: template.id,
    name: template.name,
    language: template.language,
    description: template.description ?? "",
    scope,
    based_on: null,
    section_count: template.sections.length,
    editable_in_place: false,
    updated_at: null,
    sections: template.sections,
    ...extra,
  };
}

function detailsOfRow(row: TemplateRow, role: OrgRole): TemplateDetails {
  const scope: TemplateScope = row.owner_user_id ? "personal" : "organization";
  return summaryOf(rowToTemplate(row), scope, {
    based_on: row.based_on,
    editable_in_place: scope === "personal" || isManager(role),
    updated_at: row.updated_at.toISOString(),
  });
}

function withoutSections({ sections: _, ...summary }: TemplateDetails): TemplateSummary {
  return summary;
}

/** Validated content or a 400 naming the broken rule. */
function checkContent(input: unknown): TemplateContent {
  const result = validateTemplate(TemplateContentSchema, input);
  if (!result.ok) throw templateErrors.invalid(result.code, result.path, result.message);
  return { ...result.value, sections: normalizeSections(result.value.sections) };
}

export function parseTemplateDocument(input: unknown): TemplateDocument {
  const result = validateTemplate(TemplateDocumentSchema, input);
  if (!result.ok) throw templateErrors.invalid(result.code, result.path, result.message);
  return result.value;
}

/**
 * GET /api/templates: the built-ins (in `language`, English by default), the organisation's
 * templates and the actor's personal ones; stored templates only in `language` when given
 * (the page lists stored templates of every language and built-ins in `builtinLanguage`).
 */
export function listTemplates(
  args: OrgArgs & { language?: NoteLanguage; builtinLanguage?: NoteLanguage },
): Promise<TemplateSummary[]> {
  checkOrgId(args.orgId);
  return asActor(args, args.orgId, async (trx) => {
    const role = await requireMemberRole(trx, args.orgId, args.actor.userId);
    let query = trx
      .selectFrom("note_templates")
      .selectAll()
      .where("org_id", "=", args.orgId)
      .where("archived_at", "is", null)
      .where((eb) => eb.or([eb("owner_user_id", "is", null), eb("owner_user_id", "=", args.actor.userId)]));
    if (args.language) query = query.where("language", "=", args.language);
    const rows = (await query.orderBy("name").orderBy("id").execute()) as TemplateRow[];
    const builtins = listBuiltinTemplates(args.builtinLanguage ?? args.language ?? "en").map((t) =>
      withoutSections(summaryOf(t, "builtin", {})),
    );
    const stored = rows.map((row) => withoutSections(detailsOfRow(row, role)));
    const order: Record<TemplateScope, number> = { builtin: 0, organization: 1, personal: 2 };
    return [...builtins, ...stored.sort((a, b) => order[a.scope] - order[b.scope])];
  });
}

/** GET /api/templates/:id: a built-in (in `language`) or a stored template the actor may read. */
export function getTemplate(args: OrgArgs & { templateId: string; language?: NoteLanguage }): Promise<TemplateDetails> {
  checkOrgId(args.orgId);
  return asActor(args, args.orgId, async (trx) => {
    const role = await requireMemberRole(trx, args.orgId, args.actor.userId);
    if (isBuiltinTemplateId(args.templateId)) {
      const builtin = getBuiltinTemplate(args.templateId, args.language ?? "en");
      if (!builtin) throw templateErrors.notFound();
      return summaryOf(builtin, "builtin", {});
    }
    const row = await loadTemplateRow(trx, args.orgId, args.templateId);
    if (!row) throw templateErrors.notFound();
    return detailsOfRow(row, role);
  });
}

interface InsertInput {
  content: TemplateContent;
  scope: "organization" | "personal";
  basedOn: string | null;
  source: "create" | "duplicate" | "import" | "copy_on_edit";
}

async function insertTemplate(trx: ActorTransaction, args: OrgArgs, role: OrgRole, input: InsertInput): Promise<string> {
  if (input.scope === "organization" && !isManager(role)) {
    throw orgErrors.forbiddenRole("Only owners and admins create organization templates");
  }
  const { id } = await trx
    .insertInto("note_templates")
    .values({
      org_id: args.orgId,
      owner_user_id: input.scope === "personal" ? args.actor.userId : null,
      name: input.content.name,
      language: input.content.language,
      description: input.content.description ?? "",
      sections: sectionsJson(input.content.sections),
      based_on: input.basedOn,
      created_by: args.actor.userId,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await recordAudit(trx, {
    orgId: args.orgId,
    actorId: args.actor.userId,
    action: "template.created",
    entity: "template",
    entityId: id,
    details: { scope: input.scope, name: input.content.name, source: input.source, based_on: input.basedOn },
    meta: args.meta,
  });
  return id;
}

/** POST /api/templates: a new template, personal unless an owner or admin asks for the organisation's. */
export function createTemplate(
  args: OrgArgs & { content: unknown; scope?: "organization" | "personal" },
): Promise<{ id: string }> {
  checkOrgId(args.orgId);
  const content = checkContent(args.content);
  return afterTemplateChange(
    args,
    asActor(args, args.orgId, async (trx) => {
      const role = await requireMemberRole(trx, args.orgId, args.actor.userId);
      const id = await insertTemplate(trx, args, role, {
        content,
        scope: args.scope ?? "personal",
        basedOn: null,
        source: "create",
      });
      return { id };
    }),
  );
}

/** POST /api/templates {import}: a template from an export document (validated, 400 with a code). */
export function importTemplate(
  args: OrgArgs & { document: unknown; scope?: "organization" | "personal" },
): Promise<{ id: string }> {
  checkOrgId(args.orgId);
  const document = parseTemplateDocument(args.document);
  const { based_on: basedOn, ...rest } = document.template;
  const content = checkContent(rest);
  return afterTemplateChange(
    args,
    asActor(args, args.orgId, async (trx) => {
      const role = await requireMemberRole(trx, args.orgId, args.actor.userId);
      const id = await insertTemplate(trx, args, role, {
        content,
        scope: args.scope ?? "personal",
        basedOn: basedOn ?? null,
        source: "import",
      });
      return { id };
    }),
  );
}

/** The template as the actor sees it in this transaction: a built-in in `language`, or a visible stored one. */
async function visibleTemplate(
  trx: ActorTransaction,
  orgId: string,
  templateId: string,
  language: NoteLanguage,
  options: { includeArchived?: boolean } = {},
): Promise<NoteTemplate | null> {
  if (isBuiltinTemplateId(templateId)) return getBuiltinTemplate(templateId, language);
  const row = await loadTemplateRow(trx, orgId, templateId, options);
  return row ? rowToTemplate(row) : null;
}

/** POST /api/templates {duplicate_of}: a copy of a built-in (in `language`) or of any visible template. */
export function duplicateTemplate(
  args: OrgArgs & { templateId: string; language?: NoteLanguage; name?: string; scope?: "organization" | "personal" },
): Promise<{ id: string }> {
  checkOrgId(args.orgId);
  return afterTemplateChange(
    args,
    asActor(args, args.orgId, async (trx) => {
      const role = await requireMemberRole(trx, args.orgId, args.actor.userId);
      const source = await visibleTemplate(trx, args.orgId, args.templateId, args.language ?? "en");
      if (!source) throw templateErrors.notFound();
      const content = checkContent({
        name: args.name ?? source.name,
        language: source.language,
        description: source.description,
        sections: source.sections,
      });
      const id = await insertTemplate(trx, args, role, {
        content,
        scope: args.scope ?? "personal",
        basedOn: source.id,
        source: "duplicate",
      });
      return { id };
    }),
  );
}

/**
 * PUT /api/templates/:id. Issue 6: owners and admins edit organisation templates in place; a
 * clinician's or staff member's edit of one becomes their personal copy (`copied: true`, the new
 * id), leaving the practice's template as it was. Built-ins are read-only (409).
 */
export function updateTemplate(
  args: OrgArgs & { templateId: string; content: unknown },
): Promise<{ id: string; copied: boolean }> {
  checkOrgId(args.orgId);
  if (isBuiltinTemplateId(args.templateId)) throw templateErrors.builtinReadOnly();
  const content = checkContent(args.content);
  return afterTemplateChange(
    args,
    asActor(args, args.orgId, async (trx) => {
      const role = await requireMemberRole(trx, args.orgId, args.actor.userId);
      const row = await loadTemplateRow(trx, args.orgId, args.templateId);
      if (!row) throw templateErrors.notFound();
      if (row.owner_user_id === null && !isManager(role)) {
        const id = await insertTemplate(trx, args, role, { content, scope: "personal", basedOn: row.id, source: "copy_on_edit" });
        return { id, copied: true };
      }
      await trx
        .updateTable("note_templates")
        .set({
          name: content.name,
          language: content.language,
          description: content.description ?? "",
          sections: sectionsJson(content.sections),
          updated_at: new Date(),
        })
        .where("org_id", "=", args.orgId)
        .where("id", "=", row.id)
        .execute();
      await recordAudit(trx, {
        orgId: args.orgId,
        actorId: args.actor.userId,
        action: "template.updated",
        entity: "template",
        entityId: row.id,
        details: { scope: row.owner_user_id ? "personal" : "organization", name: content.name },
        meta: args.meta,
      });
      return { id: row.id, copied: false };
    }),
  );
}

/** DELETE /api/templates/:id: archives it (notes made from it keep resolving it). */
export function deleteTemplate(args: OrgArgs & { templateId: string }): Promise<void> {
  checkOrgId(args.orgId);
  if (isBuiltinTemplateId(args.templateId)) throw templateErrors.builtinReadOnly();
  return afterTemplateChange(
    args,
    asActor(args, args.orgId, async (trx) => {
      const role = await requireMemberRole(trx, args.orgId, args.actor.userId);
      const row = await loadTemplateRow(trx, args.orgId, args.templateId);
      if (!row) throw templateErrors.notFound();
      if (row.owner_user_id === null && !isManager(role)) {
        throw orgErrors.forbiddenRole("Only owners and admins delete organization templates");
      }
      await trx
        .updateTable("note_templates")
        .set({ archived_at: new Date(), updated_at: new Date() })
        .where("org_id", "=", args.orgId)
        .where("id", "=", row.id)
        .execute();
      await recordAudit(trx, {
        orgId: args.orgId,
        actorId: args.actor.userId,
        action: "template.deleted",
        entity: "template",
        entityId: row.id,
        details: { scope: row.owner_user_id ? "personal" : "organization", name: row.name },
        meta: args.meta,
      });
    }),
  );
}

/** GET /api/templates/:id/export: the versioned JSON document (built-ins in `language`). */
export async function exportTemplate(args: OrgArgs & { templateId: string; language?: NoteLanguage }): Promise<TemplateDocument> {
  const template = await getTemplate(args);
  return templateDocument(template, template.scope === "builtin" ? template.id : template.based_on);
}

/**
 * The template a note is generated from (issue 6 "Generation"), for the notes service: a
 * built-in in `language`, or a stored template the user may read in this organisation —
 * archived ones included, so a note made before a template was deleted can still be
 * regenerated. Another tenant's or another member's personal template is null.
 */
export function resolveTemplate(args: OrgArgs, templateId: string, language: NoteLanguage): Promise<NoteTemplate | null> {
  checkOrgId(args.orgId);
  if (isBuiltinTemplateId(templateId)) return Promise.resolve(getBuiltinTemplate(templateId, language));
  return asActor(args, args.orgId, (trx) => resolveTemplateIn(trx, args.orgId, templateId, language));
}

/** resolveTemplate inside a caller's withActor transaction (the notes job already holds one). */
export function resolveTemplateIn(
  trx: ActorTransaction,
  orgId: string,
  templateId: string,
  language: NoteLanguage,
): Promise<NoteTemplate | null> {
  return visibleTemplate(trx, orgId, templateId, language, { includeArchived: true });
}

/** Template text is one of the practice's vocabulary sources (ADR 0032): refresh it once the change committed. */
async function afterTemplateChange<T>(args: OrgArgs, change: Promise<T>): Promise<T> {
  const result = await change;
  await queueVocabularyRefresh(args.db, args.orgId);
  return result;
}
