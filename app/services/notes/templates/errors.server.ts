import { DetailedAppError } from "#app/services/visits/errors.server.ts";
import { AppError } from "#app/utils/app-error.ts";
import type { TemplateErrorCode } from "./template-schema.ts";

/** The templates API's stable codes (docs/api.md "Templates"). */
export const templateErrors = {
  // Another tenant's, another member's personal, an unknown and a malformed id all get the same 404.
  notFound: () => new AppError(404, "template_not_found", "Template not found"),
  builtinReadOnly: () =>
    new AppError(
      409,
      "builtin_read_only",
      "Built-in templates are read-only: duplicate it (POST /api/templates {duplicate_of}) and edit the copy",
    ),
  /** A template that breaks TemplateContentSchema: the code names the rule, `path` where. */
  invalid: (code: TemplateErrorCode, path: string, message: string) => new DetailedAppError(400, code, message, { path }),
};
