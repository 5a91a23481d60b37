import type { OrgAuditAction } from "#app/services/orgs/audit.server.ts";

// The audit actions of transcript re-runs and edits, named once for the services that record them.
const ACTIONS = {
  rerun: "visit.transcription_rerun",
  edited: "visit.transcript_edited",
} as const satisfies Record<string, OrgAuditAction>;

export function transcriptAuditAction(name: keyof typeof ACTIONS): OrgAuditAction {
  return ACTIONS[name];
}
