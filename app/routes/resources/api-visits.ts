import { z } from "zod";
import { VISIT_LANGUAGES, VISIT_STATUSES } from "#app/db/schema.ts";
import { createVisit, listVisits } from "#app/services/visits/visits.server.ts";
import { INVALID_TEXT, isStorableLine } from "#app/utils/storable-text.ts";
import type { Route } from "./+types/api-visits";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { json, requireApiOrg } from "./org-api.server.ts";
import { handleVisitApi, maxJsonBytes, readJsonLimited, readQuery } from "./visit-api.server.ts";

const VisitListSchema = z.object({
  patient_id: z.string().max(100).optional(),
  status: z.enum(VISIT_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});

const CreateVisitSchema = z.strictObject({
  patient_id: z.string().max(100),
  title: z.string().max(200).refine(isStorableLine, { error: INVALID_TEXT }).default(""),
  language: z.enum(VISIT_LANGUAGES),
  // Checked by the service: anything but true is 400 consent_required.
  consent: z.boolean().optional(),
  clinician_id: z.string().max(100).nullable().optional(),
  // Issue 12: checked by the service (real day, not in the future): 400 invalid_visit_date / visit_date_in_future.
  visit_date: z.string().max(20).nullable().optional(),
  // Issue 29: the template the note is auto-drafted with (checked by the service: 404 template_not_found).
  template_id: z.string().min(1).max(100).nullable().optional(),
});

// GET /api/visits?patient_id=&status= → the current organisation's visits, newest first.
export function loader({ request, context }: Route.LoaderArgs) {
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const { patient_id, status, limit } = readQuery(request, VisitListSchema);
    return json(await listVisits({ ...args, orgId: org.id, patientId: patient_id, status, limit }));
  });
}

// POST /api/visits { patient_id, title, language, consent: true, visit_date?, template_id? } → 201 { id }; consent is recorded and audited.
export function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, HEAD, POST");
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const body = await readJsonLimited(request, CreateVisitSchema, maxJsonBytes(context));
    const created = await createVisit({
      ...args,
      orgId: org.id,
      patientId: body.patient_id,
      title: body.title,
      language: body.language,
      consent: body.consent === true,
      clinicianId: body.clinician_id ?? null,
      visitDate: body.visit_date ?? null,
      templateId: body.template_id ?? null,
    });
    return json(created, 201);
  });
}
