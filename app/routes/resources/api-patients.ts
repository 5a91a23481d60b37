import { z } from "zod";
import { PATIENT_SEXES } from "#app/db/schema.ts";
import { createPatient, searchPatients } from "#app/services/patients/patients.server.ts";
import { INVALID_TEXT, isStorableLine, isStorableText } from "#app/utils/storable-text.ts";
import type { Route } from "./+types/api-patients";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { json, requireApiOrg } from "./org-api.server.ts";
import { handleVisitApi, maxJsonBytes, readJsonLimited, readQuery } from "./visit-api.server.ts";

const PatientSearchSchema = z.object({
  q: z.string().max(200).refine(isStorableText, { error: INVALID_TEXT }).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});

const CreatePatientSchema = z.strictObject({
  display_name: z.string().trim().min(1).max(200).refine(isStorableLine, { error: INVALID_TEXT }),
  date_of_birth: z.iso.date().nullable().optional(),
  sex: z.enum(PATIENT_SEXES).nullable().optional(),
  external_id: z.string().trim().min(1).max(100).refine(isStorableLine, { error: INVALID_TEXT }).nullable().optional(),
  notes: z.string().max(10_000).refine(isStorableText, { error: INVALID_TEXT }).optional(),
});

// GET /api/patients?q= → the current organisation's patients matching q (owners, clinicians, staff).
export function loader({ request, context }: Route.LoaderArgs) {
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const { q, limit } = readQuery(request, PatientSearchSchema);
    return json(await searchPatients({ ...args, orgId: org.id, q, limit }));
  });
}

// POST /api/patients { display_name, … } → 201 { id }.
export function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, HEAD, POST");
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const patient = await readJsonLimited(request, CreatePatientSchema, maxJsonBytes(context));
    return json(await createPatient({ ...args, orgId: org.id, patient }), 201);
  });
}
