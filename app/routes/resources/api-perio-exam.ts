import { getPerioExam, updatePerioExam } from "#app/services/perio/exams.server.ts";
import type { Route } from "./+types/api-perio-exam";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { json, requireApiOrg } from "./org-api.server.ts";
import { PatchPerioExamSchema } from "./perio-api-schema.ts";
import { handleVisitApi, maxJsonBytes, readJsonLimited } from "./visit-api.server.ts";

// GET /api/perio-exams/:id → the exam: teeth with sites, summary, classification.
export function loader({ request, context, params }: Route.LoaderArgs) {
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    return json(await getPerioExam({ ...args, orgId: org.id, examId: params.id }));
  });
}

// PATCH /api/perio-exams/:id { version, changes?, risk?, confirmed? } → the updated exam;
// 409 version_conflict { current } when the version is stale, 422 invalid_changes { errors }.
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "PATCH") return methodNotAllowed("GET, HEAD, PATCH");
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const patch = await readJsonLimited(request, PatchPerioExamSchema, maxJsonBytes(context));
    return json(await updatePerioExam({ ...args, orgId: org.id, examId: params.id, patch }));
  });
}
