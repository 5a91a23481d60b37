import { updateOrg } from "#app/services/orgs/orgs.server.ts";
import type { BillingProvider } from "./provider.server.ts";

/**
 * The embedded provider: an owner picks a plan and it applies at once. updateOrg refuses anyone
 * but an owner (403, and the organizations_guard trigger in the database) and writes
 * `org.plan_changed` to the audit log in the same transaction.
 */
export const manualProvider: BillingProvider = {
  id: "manual",
  canChoose: () => true,
  async startChange(args) {
    const org = await updateOrg({
      db: args.db,
      actor: args.actor,
      meta: args.meta,
      orgId: args.orgId,
      patch: { plan: args.plan },
    });
    return { kind: "changed", plan: org.plan };
  },
  async completeReturn() {
    return { kind: "none" };
  },
};
