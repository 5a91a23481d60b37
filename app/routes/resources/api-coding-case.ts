import { z } from "zod";
import { getCase } from "#app/services/coding/cases/cases.server.ts";
import { patchCase } from "#app/services/coding/cases/patch.server.ts";
import { INVALID_TEXT, isStorableLine } from "#app/utils/storable-text.ts";
import type { Route } from "./+types/api-coding-case";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { json, requireApiOrg } from "./org-api.server.ts";
import { handleVisitApi, maxJsonBytes, readJsonLimited } from "./visit-api.server.ts";

const lineId = z.uuid();
const code = z
  .string()
  .trim()
  .min(1)
  .max(12)
  .regex(/^[A-Za-z0-9.]+$/, "must be a code such as E11.65");

const OperationSchema = z.discriminatedUnion("op", [
  z.strictObject({ op: z.literal("accept"), line_id: lineId }),
  z.strictObject({
    op: z.literal("reject"),
    line_id: lineId,
    reason: z.string().trim().min(1).max(500).refine(isStorableLine, { error: INVALID_TEXT }),
  }),
  z.strictObject({ op: z.literal("edit"), line_id: lineId, code }),
  z.strictObject({ op: z.literal("add"), system: z.enum(["icd10cm", "hcpcs", "cpt", "cdt"]), code }),
  z.strictObject({
    op: z.literal("update"),
    line_id: lineId,
    modifiers: z
      .array(z.string().regex(/^[A-Z0-9]{2}$/, "modifiers are two characters"))
      .max(4)
      .optional(),
    units: z.number().int().min(1).max(999).optional(),
    pointers: z.array(z.number().int().min(0).max(10000)).max(12).optional(),
    tooth: z
      .string()
      .regex(/^[0-9A-Ta-t]{1,3}$/, "a Universal (1–32, A–T) or FDI (11–85) tooth")
      .nullable()
      .optional(),
    surfaces: z
      .string()
      .regex(/^[MODBLIF]{1,5}$/, "surfaces are letters among M O D B L I F")
      .nullable()
      .optional(),
  }),
]);

const PatchSchema = z.strictObject({
  operations: z.array(OperationSchema).max(200).optional(),
  status: z.enum(["open", "coded"]).optional(),
});

// GET /api/coding/cases/:id → the case (owners, clinicians, admins, staff).
export function loader({ request, context, params }: Route.LoaderArgs) {
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    return json(await getCase({ ...args, orgId: org.id, caseId: params.id }));
  });
}

// PATCH /api/coding/cases/:id { operations?, status? } → the case (owners and clinicians).
export function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== "PATCH") return methodNotAllowed("GET, HEAD, PATCH");
  return handleVisitApi(async () => {
    const { args, org } = await requireApiOrg(request, context);
    const patch = await readJsonLimited(request, PatchSchema, maxJsonBytes(context));
    return json(await patchCase({ ...args, orgId: org.id, caseId: params.id, patch }));
  });
}
