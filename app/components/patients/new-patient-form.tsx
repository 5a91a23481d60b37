import { useTranslation } from "react-i18next";
import { Form, useNavigation } from "react-router";
import { PATIENT_SEXES } from "#app/db/schema.ts";

export interface NewPatientFailure {
  error: string;
  values: Record<string, string>;
}

/**
 * "New patient": a POST form (works without JavaScript); a failure keeps what was typed, and a
 * success (`created`, the new id) starts over with a closed, empty form.
 */
export function NewPatientForm({
  failure,
  created,
  initiallyOpen = false,
}: {
  failure?: NewPatientFailure;
  created: string | null;
  initiallyOpen?: boolean;
}) {
  const { t } = useTranslation("patients");
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formMethod?.toUpperCase() === "POST";
  const values = failure?.values ?? {};
  return (
    <details id="new-patient" className="new-patient" open={failure || initiallyOpen ? true : undefined} key={created ?? "new"}>
      <summary className="new-patient-toggle">{t("create.heading")}</summary>
      <Form method="post" data-testid="new-patient" key={failure ? JSON.stringify(failure) : "new"}>
        <label>
          {t("create.displayName")}
          <input name="display_name" required maxLength={200} autoComplete="off" defaultValue={values.display_name} />
        </label>
        <div className="grid">
          <label>
            {t("create.dateOfBirth")}
            <input type="date" name="date_of_birth" min="1900-01-01" defaultValue={values.date_of_birth} />
          </label>
          <label>
            {t("create.sex")}
            <select name="sex" defaultValue={values.sex ?? ""}>
              <option value="">{t("create.sexUnset")}</option>
              {PATIENT_SEXES.map((sex) => (
                <option key={sex} value={sex}>
                  {t(`patient.sex.${sex}`)}
                </option>
              ))}
            </select>
          </label>
        </div>
        <label>
          {t("create.externalId")}
          <input name="external_id" maxLength={100} autoComplete="off" defaultValue={values.external_id} />
        </label>
        <label>
          {t("create.notes")}
          <textarea name="notes" rows={3} maxLength={10_000} defaultValue={values.notes} />
        </label>
        {failure ? (
          <p role="alert" className="form-failure" data-code={failure.error}>
            {t(`errors.${failure.error}`, { defaultValue: t("errors.failed") })}
          </p>
        ) : null}
        <button type="submit" aria-busy={busy || undefined} disabled={busy}>
          {t("create.submit")}
        </button>
      </Form>
    </details>
  );
}
