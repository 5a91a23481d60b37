import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import express from "express";
import { pino } from "pino";
import { expect, it } from "vitest";
import { createHttpLogger } from "../../server/http-logger.ts";
import { requestIdentity } from "../../server/request-identity.ts";

// Issue 25 probe: "invitation and magic-link tokens are written to the access log in clear".
it("writes invitation, magic-link and recovery tokens and PKCE codes to the access log redacted", async () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const app = express();
  app.use(requestIdentity());
  app.use(createHttpLogger(pino({ level: "info" }, sink)));
  app.all("/{*any}", (_req, res) => res.send("ok"));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const secrets = ["InviteTok3n0123456789", "MagicHash0123456789", "PkceCode0123456789", "VerifyTok0123456789"];
    await fetch(`${base}/fr/accept-invite?token=${secrets[0]}&utm=x`);
    await fetch(`${base}/auth/callback?type=magiclink&token_hash=${secrets[1]}&next=/transcribing`);
    await fetch(`${base}/auth/callback?code=${secrets[2]}`);
    await fetch(`${base}/auth/v1/verify?redirect_to=/x&token=${secrets[3]}&type=recovery`);
    await new Promise((r) => setTimeout(r, 50));
    const log = lines.join("");
    for (const secret of secrets) expect(log).not.toContain(secret);
    expect(log).toContain("/fr/accept-invite?token=[redacted]&utm=x");
    expect(log).toContain("token_hash=[redacted]&next=/transcribing");
    expect(log).toContain("type=recovery");
  } finally {
    server.close();
  }
});
