import { comparePerioExams } from "#app/services/perio/exams.server.ts";
import type { Route } from "./+types/api-perio-exam-compare";
import { json, requireApiOrg } from "./org-api.server.ts";
import { CompareQuerySchema } from "./perio-api-schema.ts";
import { handleVisitApi, readQuery } from "./visit-api.server.ts";

// GET /api/perio-exams/:id/compare?with=<exam id> → per-site changes, earlier exam first.
export function loader({ request, context, params }: Route.LoaderArgs) {
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const { with: withId } = readQuery(request, CompareQuerySchema);
    return json(await comparePerioExams({ ...args, orgId: org.id, examId: params.id, withId }));
  });
}
