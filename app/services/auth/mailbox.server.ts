import { sql } from "kysely";
import type { AuthRuntime } from "./auth-runtime.server.ts";

/** One message of the dev mailbox; an SMS has no subject and no HTML. */
export interface MailboxMessage {
  channel: "email" | "sms";
  to: string;
  subject: string | null;
  text: string;
  html: string | null;
  created_at: string;
}

/** How many messages the mailbox shows; older ones stay in the outbox. */
const MAILBOX_SIZE = 200;

/** Every email and SMS in the outbox, newest first, whatever its delivery status. */
export async function listMailbox(auth: AuthRuntime): Promise<MailboxMessage[]> {
  const { rows } = await sql<{
    channel: "email" | "sms";
    recipient: string;
    subject: string | null;
    text_body: string;
    html_body: string | null;
    created_at: Date;
  }>`select channel, recipient, subject, text_body, html_body, created_at from auth.outbox
     order by created_at desc, id desc limit ${MAILBOX_SIZE}`.execute(auth.db.kysely);
  return rows.map((r) => ({
    channel: r.channel,
    to: r.recipient,
    subject: r.channel === "sms" ? null : r.subject,
    text: r.text_body,
    html: r.channel === "sms" ? null : r.html_body,
    created_at: new Date(r.created_at).toISOString(),
  }));
}
