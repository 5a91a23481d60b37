import { sql } from "kysely";
import type { RouterContextProvider } from "react-router";
import type { Database } from "#app/db/database.server.ts";
import { orgContext } from "#app/services/org-context/current-org.ts";
import { loadMemberOrgs } from "#app/services/org-context/resolve.server.ts";
import { INVITATION_EMAIL_TEMPLATE } from "#app/services/orgs/invitation-email.server.ts";
import { userContext } from "#app/services/session/user-context.ts";
import type { ApiHarness, ApiUser } from "#tests/setup/api.ts";

// Shared by the invitation suites (email, settings page, accept page).

export interface RouteOutcome {
  status: number;
  data: unknown;
  headers: Headers;
}

function isDataWithInit(value: unknown): value is { data: unknown; init: ResponseInit | null } {
  return typeof value === "object" && value !== null && "data" in value && "init" in value;
}

function outcome(value: unknown): RouteOutcome | null {
  if (value instanceof Response) return { status: value.status, data: null, headers: value.headers };
  if (isDataWithInit(value)) {
    return { status: value.init?.status ?? 200, data: value.data, headers: new Headers(value.init?.headers) };
  }
  return null;
}

/** A loader or action's answer, returned or thrown, as React Router would turn it into a response. */
export async function runRoute(run: () => unknown): Promise<RouteOutcome> {
  try {
    const value = await run();
    return outcome(value) ?? { status: 200, data: value, headers: new Headers() };
  } catch (thrown) {
    const result = outcome(thrown);
    if (!result) throw thrown;
    return result;
  }
}

export interface OutboxEmail {
  recipient: string;
  template: string;
  locale: string;
  subject: string;
  text_body: string;
  html_body: string;
}

/** Invitation emails queued for `to`, oldest first. */
export async function invitationEmails(db: Database, to: string): Promise<OutboxEmail[]> {
  const { rows } = await sql<OutboxEmail>`
    select recipient, template, locale, subject, text_body, html_body from auth.outbox
    where recipient = ${to} and template = ${INVITATION_EMAIL_TEMPLATE}
    order by created_at, id`.execute(db.kysely);
  return rows;
}

/** The accept link of an email's text and its token. */
export function acceptLink(text: string): { link: string; token: string } {
  const link = text.match(/https?:\/\/\S+\/accept-invite\?token=[A-Za-z0-9_-]+/)?.[0] ?? "";
  return { link, token: link ? (new URL(link).searchParams.get("token") ?? "") : "" };
}

/** A request context for a page under the app layout: signed in as `user`, working in `orgId`. */
export async function appPageContext(h: ApiHarness, user: ApiUser, orgId: string): Promise<RouterContextProvider> {
  const context = h.context();
  const sessionUser = { id: user.id, email: user.email };
  context.set(userContext, sessionUser);
  const orgs = await loadMemberOrgs(h.db, user.id);
  const org = orgs.find((o) => o.id === orgId);
  if (!org) throw new Error("the user is not a member of that organisation");
  context.set(orgContext, { user: sessionUser, org, role: org.role, orgs, switchedFrom: null });
  return context;
}

/** A form POST the way a browser sends one. */
export function formRequest(url: string, fields: Record<string, string>, headers: Record<string, string> = {}): Request {
  return new Request(url, { method: "POST", body: new URLSearchParams(fields), headers });
}
