import { useTranslation } from "react-i18next";
import { Form, useNavigation } from "react-router";
import type { OrgKind, OrgPms } from "#app/db/schema.ts";
import { CODING_PROFILES, type CodingProfile } from "#app/services/coding/profile.ts";
import { AUDIO_RETENTION_MAX_DAYS, AUDIO_RETENTION_MIN_DAYS } from "#app/services/visits/retention.ts";
import { AccentField } from "./accent-field.tsx";
import { resultFor, SettingsDone, SettingsFailure, type SettingsResult } from "./settings-feedback.tsx";

export interface OrganizationValues {
  name: string;
  kind: OrgKind;
  timezone: string;
  region: string;
  pms: OrgPms;
  audio_retention_days: number;
  coding_profile: CodingProfile;
  accent_color: string | null;
}

/** Settings → Organisation's editable fields (owners and admins: docs/permissions.md). */
export function OrganizationForm({
  values,
  timeZones,
  regions,
  pmsOptions,
  result,
}: {
  values: OrganizationValues;
  timeZones: string[];
  regions: string[];
  pmsOptions: readonly OrgPms[];
  result?: SettingsResult;
}) {
  const { t } = useTranslation(["orgSettings", "org"]);
  const busy = useNavigation().formData?.get("intent") === "update";
  const own = resultFor(result, "update");
  return (
    // Keyed by the saved values so the fields show what the server now holds after a save.
    <Form method="post" key={JSON.stringify(values)} aria-labelledby="org-settings-title" className="ui-form">
      <input type="hidden" name="intent" value="update" />
      <p data-kind={values.kind}>
        {t("organization.kind")}: <strong>{t(`org:kinds.${values.kind}`)}</strong>
      </p>
      <label>
        {t("organization.name")}
        <input name="name" defaultValue={values.name} required maxLength={200} autoComplete="organization" />
      </label>
      <label>
        {t("organization.timezone")}
        <select name="timezone" defaultValue={values.timezone}>
          {timeZones.map((zone) => (
            <option key={zone} value={zone}>
              {zone}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t("organization.region")}
        <select name="region" defaultValue={values.region}>
          {regions.map((region) => (
            <option key={region} value={region}>
              {t(`regions.${region}`, { defaultValue: region.toUpperCase() })}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t("organization.pms")}
        <select name="pms" defaultValue={values.pms}>
          {pmsOptions.map((pms) => (
            <option key={pms} value={pms}>
              {t(`pms.${pms}`)}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t("organization.audioRetention")}
        <input
          type="number"
          name="audio_retention_days"
          defaultValue={values.audio_retention_days}
          min={AUDIO_RETENTION_MIN_DAYS}
          max={AUDIO_RETENTION_MAX_DAYS}
          step={1}
          required
          inputMode="numeric"
          aria-describedby="audio-retention-help"
        />
        <small id="audio-retention-help" className="ui-field-help">
          {t("organization.audioRetentionHelp", { min: AUDIO_RETENTION_MIN_DAYS, max: AUDIO_RETENTION_MAX_DAYS })}
        </small>
      </label>
      <label>
        {t("organization.codingProfile")}
        <select name="coding_profile" defaultValue={values.coding_profile} aria-describedby="coding-profile-help">
          {CODING_PROFILES.map((profile) => (
            <option key={profile} value={profile}>
              {t(`codingProfiles.${profile}`)}
            </option>
          ))}
        </select>
        <small id="coding-profile-help" className="ui-field-help">
          {t("organization.codingProfileHelp")}
        </small>
      </label>
      <AccentField value={values.accent_color} />
      <SettingsFailure failure={own?.failure} />
      {own?.done ? <SettingsDone message={t("organization.saved")} /> : null}
      <div className="ui-form-actions">
        <button type="submit" className="ui-button" aria-busy={busy || undefined} disabled={busy}>
          {t("organization.save")}
        </button>
      </div>
    </Form>
  );
}
