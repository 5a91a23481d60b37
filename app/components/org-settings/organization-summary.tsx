import { useTranslation } from "react-i18next";
import type { OrgKind, OrgPms } from "#app/db/schema.ts";

/** Read-only view of the organisation for clinicians and staff. */
export function OrganizationSummary({
  values,
}: {
  values: { name: string; kind: OrgKind; timezone: string; region: string; pms: OrgPms };
}) {
  const { t } = useTranslation(["orgSettings", "org"]);
  const rows: [string, string][] = [
    [t("organization.name"), values.name],
    [t("organization.kind"), t(`org:kinds.${values.kind}`)],
    [t("organization.timezone"), values.timezone],
    [t("organization.region"), t(`regions.${values.region}`, { defaultValue: values.region.toUpperCase() })],
    [t("organization.pms"), t(`pms.${values.pms}`)],
  ];
  return (
    <>
      <dl className="org-settings-values">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <p>
        <small>{t("organization.readOnly")}</small>
      </p>
    </>
  );
}
