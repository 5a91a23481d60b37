import net from "node:net";
import { sql } from "kysely";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createTestAuth, type TestAuth } from "#tests/setup/auth.ts";

interface Received {
  from: string;
  to: string[];
  data: string;
}

/** Just enough of an SMTP server (RFC 5321) on a loopback port for nodemailer to hand it mail. */
async function startSmtpServer(options: { rejectRecipients?: boolean } = {}) {
  const received: Received[] = [];
  const server = net.createServer((socket) => {
    socket.setEncoding("utf8");
    let buffer = "";
    let inData = false;
    let current: Received = { from: "", to: [], data: "" };
    socket.write("220 localhost ESMTP test\r\n");
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end === -1) return;
          current.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          received.push(current);
          current = { from: "", to: [], data: "" };
          socket.write("250 2.0.0 queued\r\n");
          continue;
        }
        const eol = buffer.indexOf("\r\n");
        if (eol === -1) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.split(" ")[0]?.toUpperCase() ?? "";
        if (verb === "EHLO" || verb === "HELO") socket.write("250-localhost\r\n250 8BITMIME\r\n");
        else if (verb === "MAIL") {
          current.from = line;
          socket.write("250 2.1.0 ok\r\n");
        } else if (verb === "RCPT") {
          if (options.rejectRecipients) socket.write("550 5.1.1 mailbox unavailable\r\n");
          else {
            current.to.push(line);
            socket.write("250 2.1.5 ok\r\n");
          }
        } else if (verb === "DATA") {
          inData = true;
          socket.write("354 end with <CR><LF>.<CR><LF>\r\n");
        } else if (verb === "QUIT") socket.end("221 2.0.0 bye\r\n");
        else if (verb === "RSET" || verb === "NOOP") socket.write("250 2.0.0 ok\r\n");
        else socket.write("502 5.5.2 not implemented\r\n");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  return { received, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const outboxRows = async (t: TestAuth) =>
  (
    await sql<{ status: string; attempts: number; last_error: string | null; sent_at: Date | null }>`
      select status, attempts, last_error, sent_at from auth.outbox order by created_at`.execute(t.db.kysely)
  ).rows;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(options: { rejectRecipients?: boolean } = {}) {
  const smtp = await startSmtpServer(options);
  cleanups.push(smtp.close);
  const t = await createTestAuth({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, SMTP_FROM: "Murmur <no-reply@murmur.test>" });
  cleanups.push(() => t.close());
  // Stops the delivery worker before the database closes.
  cleanups.push(async () => t.auth.close?.());
  return { smtp, t };
}

describe("SMTP delivery (SMTP_URL set)", () => {
  it("sends a queued email at once and marks it sent", async () => {
    const { smtp, t } = await setup();
    await t.client().auth.signUp({ email: "deliver@example.org", password: "Correct-Horse-7" });
    await vi.waitFor(() => expect(smtp.received).toHaveLength(1), { timeout: 10_000, interval: 20 });
    const mail = smtp.received[0] as Received;
    expect(mail.from).toContain("no-reply@murmur.test");
    expect(mail.to.join()).toContain("deliver@example.org");
    expect(mail.data).toContain("Subject: Confirm your email for Murmur AI Scribe");
    const body = mail.data.replace(/=\r\n/g, "").replace(/=3D/g, "=");
    expect(body).toContain("http://murmur.test/auth/v1/verify?token=");
    await vi.waitFor(
      async () =>
        expect(await outboxRows(t)).toEqual([expect.objectContaining({ status: "sent", attempts: 1, last_error: null })]),
      { timeout: 10_000, interval: 20 },
    );
  });

  it("keeps a refused email pending with the error, then gives up after the last attempt", async () => {
    const { t } = await setup({ rejectRecipients: true });
    await t.client().auth.signUp({ email: "bounce@example.org", password: "Correct-Horse-7" });
    await vi.waitFor(
      async () =>
        expect((await outboxRows(t))[0]).toMatchObject({
          status: "pending",
          attempts: 1,
          last_error: expect.stringContaining("550"),
        }),
      { timeout: 10_000, interval: 20 },
    );
    // The retry is due now and it is the fifth attempt.
    await sql`update auth.outbox set attempts = 4, sent_at = null`.execute(t.db.kysely);
    t.auth.onOutbox?.();
    await vi.waitFor(async () => expect((await outboxRows(t))[0]).toMatchObject({ status: "failed", attempts: 5 }), {
      timeout: 10_000,
      interval: 20,
    });
  });
});

describe("without SMTP_URL", () => {
  it("leaves emails pending in the outbox for the dev mailbox", async () => {
    const t = await createTestAuth();
    cleanups.push(() => t.close());
    expect(t.auth.close).toBeUndefined();
    await t.client().auth.signUp({ email: "stays@example.org", password: "Correct-Horse-7" });
    expect(await outboxRows(t)).toEqual([expect.objectContaining({ status: "pending", attempts: 0 })]);
  });
});
