import { sql } from "kysely";
import nodemailer, { type Transporter } from "nodemailer";
import type { AuthRuntime } from "./auth-runtime.server.ts";

/** A safety net for messages whose instant trigger was missed (e.g. queued by another instance). */
const POLL_INTERVAL_MS = 30_000;
const BATCH_SIZE = 10;
/** After this many failed attempts a message is marked failed and left for the operator. */
export const MAX_DELIVERY_ATTEMPTS = 5;
/** Retries wait 60 s, then 120 s, 240 s…; longer than the SMTP timeouts below, see claimBatch. */
const RETRY_BASE_SECONDS = 60;

interface PendingEmail {
  id: string;
  recipient: string;
  subject: string | null;
  text_body: string;
  html_body: string | null;
  attempts: number;
}

export interface EmailDelivery {
  /** Delivers what is pending now (also called by `auth.onOutbox` after each queued email). */
  kick(): void;
  stop(): Promise<void>;
}

/**
 * Sends queued auth emails through SMTP_URL with nodemailer. Without SMTP_URL nothing is started
 * and emails stay pending in the outbox, where the dev mailbox shows them.
 */
export function startEmailDelivery(auth: AuthRuntime): EmailDelivery | null {
  const smtpUrl = auth.config.smtpUrl;
  if (!smtpUrl) return null;
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  const kick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        await deliverPending(auth, transport).catch((err: unknown) => auth.logger.error({ err }, "email delivery failed"));
      } while (again && !stopped);
    })().finally(() => {
      running = null;
    });
  };

  const timer = setInterval(kick, POLL_INTERVAL_MS);
  timer.unref();
  auth.onOutbox = kick;
  kick();
  return {
    kick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (auth.onOutbox === kick) auth.onOutbox = undefined;
      await running;
      transport.close();
    },
  };
}

async function deliverPending(auth: AuthRuntime, transport: Transporter): Promise<void> {
  for (;;) {
    const batch = await claimBatch(auth);
    for (const email of batch) await deliver(auth, transport, email);
    if (batch.length < BATCH_SIZE) return;
  }
}

/**
 * Claims due messages. While a message is pending, `sent_at` holds the time of its last attempt:
 * that spaces retries, and since claiming sets it, a second instance polling at the same moment
 * skips messages another one is sending (the retry wait outlasts the SMTP timeouts).
 */
async function claimBatch(auth: AuthRuntime): Promise<PendingEmail[]> {
  const { rows } = await sql<PendingEmail>`
    update auth.outbox set attempts = attempts + 1, sent_at = now()
    where id in (
      select id from auth.outbox
      where channel = 'email' and status = 'pending'
        and (sent_at is null or sent_at < now() - make_interval(secs => ${RETRY_BASE_SECONDS} * power(2, greatest(attempts - 1, 0))))
      order by created_at
      limit ${BATCH_SIZE}
      for update skip locked)
    returning id, recipient, subject, text_body, html_body, attempts`.execute(auth.db.kysely);
  return rows;
}

async function deliver(auth: AuthRuntime, transport: Transporter, email: PendingEmail): Promise<void> {
  try {
    await transport.sendMail({
      from: auth.config.smtpFrom,
      to: email.recipient,
      subject: email.subject ?? "",
      text: email.text_body,
      html: email.html_body ?? undefined,
    });
    await sql`update auth.outbox set status = 'sent', sent_at = now(), last_error = null where id = ${email.id}`.execute(
      auth.db.kysely,
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const status = email.attempts >= MAX_DELIVERY_ATTEMPTS ? "failed" : "pending";
    await sql`update auth.outbox set status = ${status}, last_error = ${message.slice(0, 500)} where id = ${email.id}`.execute(
      auth.db.kysely,
    );
    auth.logger.warn({ outboxId: email.id, attempts: email.attempts, status }, "email delivery attempt failed");
  }
}
