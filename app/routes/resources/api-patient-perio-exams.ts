import { createPerioExam, listPerioExams } from "#app/services/perio/exams.server.ts";
import { todayInZone } from "#app/utils/zoned-time.ts";
import type { Route } from "./+types/api-patient-perio-exams";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { json, requireApiOrg } from "./org-api.server.ts";
import { CreatePerioExamSchema } from "./perio-api-schema.ts";
import { handleVisitApi, maxJsonBytes, readJsonLimited } from "./visit-api.server.ts";

// GET /api/patients/:id/perio-exams → the patient's exams, newest first, with summaries.
export function loader({ request, context, params }: Route.LoaderArgs) {
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    return json(await listPerioExams({ ...args, orgId: org.id, patientId: params.id }));
  });
}

// POST /api/patients/:id/perio-exams { exam_date?, copy_from? } → 201 { id }. The default date is
// today in the organisation's time zone.
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, HEAD, POST");
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const body = await readJsonLimited(request, CreatePerioExamSchema, maxJsonBytes(context));
    const created = await createPerioExam({
      ...args,
      orgId: org.id,
      patientId: params.id,
      examDate: body.exam_date,
      copyFrom: body.copy_from,
      today: todayInZone(org.timezone),
    });
    return json(created, 201);
  });
}
