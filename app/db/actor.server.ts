import { sql, type Transaction } from "kysely";
import type { Database } from "./database.server.ts";
import type { DB } from "./schema.ts";

/** Who a query runs for. Both come from the server context, never from a request body. */
export interface Actor {
  userId: string | null;
  orgId: string | null;
}

export type ActorTransaction = Transaction<DB>;

/**
 * Runs `fn` in one transaction as the non-superuser `murmur_app` role with the actor's identity
 * set transaction-locally, so row-level security filters every statement and nothing carries
 * over to the next user of the pooled connection.
 */
export function withActor<T>(db: Database, actor: Actor, fn: (trx: ActorTransaction) => Promise<T>): Promise<T> {
  const claims = JSON.stringify(actor.userId ? { sub: actor.userId, role: "authenticated" } : { role: "anon" });
  return db.kysely.transaction().execute(async (trx) => {
    // One round trip, not two: set_config('role', …, true) is SET LOCAL ROLE (the same setting,
    // the same membership check), as PostgREST does it. Every API call opens one or more of these
    // transactions, and each round trip's socket write was a visible share of the CPU under load
    // (issue 17 profile). The role comes first: the other two settings need no privilege.
    await sql`select set_config('role', 'murmur_app', true), set_config('request.jwt.claims', ${claims}, true), set_config('murmur.org_id', ${actor.orgId ?? ""}, true)`.execute(
      trx,
    );
    return fn(trx);
  });
}
