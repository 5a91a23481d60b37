import { z } from "zod";
import { SITE_FIELDS, TOOTH_FIELDS } from "#app/services/perio/changes.ts";
import { SITES } from "#app/services/perio/teeth.ts";

// Bodies of the perio API (docs/api.md "Periodontal chart"). Shapes only: value ranges are the
// domain's (services/perio/changes.ts), which answers 422 invalid_changes with per-change codes.

const IsoDay = z.iso.date().refine((d) => d >= "1900-01-01" && d <= "2200-01-01");

export const CreatePerioExamSchema = z.strictObject({
  exam_date: IsoDay.nullable().optional(),
  copy_from: z
    .union([z.literal("latest"), z.string().max(64)])
    .nullable()
    .optional(),
});

const ChangeSchema = z.strictObject({
  tooth: z.number(),
  site: z.enum(SITES).nullable().optional(),
  field: z.enum([...TOOTH_FIELDS, ...SITE_FIELDS]),
  value: z.union([z.number(), z.boolean(), z.string().max(2000), z.null()]),
});

const RiskSchema = z.strictObject({
  smoking: z.enum(["never", "former", "lt10", "ge10"]).nullable().optional(),
  diabetes: z.boolean().nullable().optional(),
  hba1c: z.number().min(3).max(20).nullable().optional(),
  boneLossPercent: z.number().min(0).max(100).nullable().optional(),
  age: z.number().int().min(1).max(130).nullable().optional(),
  teethLostToPerio: z.number().int().min(0).max(32).nullable().optional(),
  verticalBoneLoss: z.boolean().nullable().optional(),
  complexRehabilitation: z.boolean().nullable().optional(),
  calLoss5y: z.number().min(-20).max(20).nullable().optional(),
});

export const PatchPerioExamSchema = z.strictObject({
  version: z.number().int().min(1),
  changes: z.array(ChangeSchema).max(2000).optional(),
  exam_date: IsoDay.optional(),
  risk: RiskSchema.optional(),
  confirmed: z
    .strictObject({
      stage: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]).nullable(),
      extent: z.enum(["localised", "generalised", "molar_incisor"]).nullable(),
      grade: z.enum(["A", "B", "C"]).nullable(),
    })
    .nullable()
    .optional(),
});

export const CompareQuerySchema = z.object({ with: z.string().max(64) });
