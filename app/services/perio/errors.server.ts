import { DetailedAppError } from "#app/services/visits/errors.server.ts";
import { AppError } from "#app/utils/app-error.ts";
import type { ChangeError } from "./changes.ts";

/** The perio API's stable codes (docs/api.md "Periodontal chart"). */
export const perioErrors = {
  // Another tenant's, an unknown and a malformed id all get the same 404.
  examNotFound: () => new AppError(404, "perio_exam_not_found", "Periodontal exam not found"),
  copyFromNotFound: () => new AppError(404, "perio_copy_from_not_found", "The exam to copy from is not one of this patient's"),
  compareOtherPatient: () => new AppError(400, "perio_compare_other_patient", "Both exams must belong to the same patient"),
  versionConflict: (current: unknown) =>
    new DetailedAppError(409, "version_conflict", "Someone else changed this exam: here are the current values", { current }),
  invalidChanges: (errors: ChangeError[]) =>
    new DetailedAppError(422, "invalid_changes", "Some values are out of range or not allowed here", { errors }),
};
