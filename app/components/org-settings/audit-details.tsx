import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";

const MAX_CHARS = 160;
const FIELDS = ["name", "timezone", "region", "pms", "plan"] as const;

/** A value in the reader's language when it is one of ours (a role, plan, PMS or region), else as stored. */
function valueLabel(t: TFunction, key: string, value: unknown): string {
  if (value === null || value === undefined) return "–";
  if (typeof value === "object") return JSON.stringify(value);
  const text = String(value);
  switch (key) {
    case "role":
      return t(`org:roles.${text}`, { defaultValue: text });
    case "plan":
      return t(`plans.${text}`, { defaultValue: text });
    case "pms":
      return t(`pms.${text}`, { defaultValue: text });
    case "region":
      return t(`regions.${text}`, { defaultValue: text });
    default:
      return text;
  }
}

function fieldLabel(t: TFunction, key: string): string {
  return (FIELDS as readonly string[]).includes(key) ? t(`organization.${key}`) : key;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * One line about what changed. Entries of every action share a few shapes (services' recordAudit
 * calls): `{ changes: { field: { from, to } } }`, `{ from, to }` (a role or a plan), or flat facts
 * such as `{ email, role }`.
 */
export function summarizeDetails(t: TFunction, action: string, details: Record<string, unknown>): string {
  const parts: string[] = [];
  if (isRecord(details.changes)) {
    for (const [field, change] of Object.entries(details.changes)) {
      if (!isRecord(change)) continue;
      parts.push(`${fieldLabel(t, field)}: ${valueLabel(t, field, change.from)} → ${valueLabel(t, field, change.to)}`);
    }
  }
  const kind = action === "member.role_changed" ? "role" : action === "org.plan_changed" ? "plan" : "";
  if ("from" in details || "to" in details) {
    parts.push(`${valueLabel(t, kind, details.from)} → ${valueLabel(t, kind, details.to)}`);
  }
  for (const [key, value] of Object.entries(details)) {
    if (key === "changes" || key === "from" || key === "to") continue;
    parts.push(
      key === "email" ? String(value) : `${t(`audit.detailKeys.${key}`, { defaultValue: key })}: ${valueLabel(t, key, value)}`,
    );
  }
  const line = parts.join(" · ");
  return line.length > MAX_CHARS ? `${line.slice(0, MAX_CHARS - 1)}…` : line;
}

export function AuditDetails({ action, details }: { action: string; details: Record<string, unknown> }) {
  const { t } = useTranslation(["orgSettings", "org"]);
  const line = summarizeDetails(t, action, details);
  return line ? <span>{line}</span> : <small>{t("audit.noDetails")}</small>;
}
