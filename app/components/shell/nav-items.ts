import type { IconName } from "#app/components/ui/icons.tsx";

/** The signed-in sections, in sidebar order (SPEC §2 routes). Labels are `common:nav.*`. */
export const APP_NAV: readonly { path: string; key: string; icon: IconName }[] = [
  { path: "/dashboard", key: "nav.dashboard", icon: "dashboard" },
  { path: "/patients", key: "nav.patients", icon: "users" },
  { path: "/transcribing", key: "nav.transcribing", icon: "mic" },
  { path: "/coding", key: "nav.coding", icon: "note" },
  { path: "/records-qa", key: "nav.recordsQa", icon: "chat" },
  { path: "/periodontal-chart", key: "nav.periodontalChart", icon: "chart" },
  { path: "/custom-templates", key: "nav.customTemplates", icon: "template" },
  { path: "/settings", key: "nav.settings", icon: "settings" },
];

/** Settings pages, offered by the command palette. Labels are `common:palette.pages.*`. */
export const SETTINGS_PAGES = [
  { path: "/settings", key: "security" },
  { path: "/settings/organization", key: "organization" },
  { path: "/settings/members", key: "members" },
  { path: "/settings/invitations", key: "invitations" },
  { path: "/settings/audit", key: "audit" },
  { path: "/settings/billing", key: "billing" },
] as const;
