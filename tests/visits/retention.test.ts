import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as organizationPage from "#app/routes/app/settings/organization.tsx";
import * as orgRoute from "#app/routes/resources/api-org.ts";
import * as visitRoute from "#app/routes/resources/api-visit.ts";
import { type MemberOrg, orgContext } from "#app/services/org-context/current-org.ts";
import { userContext } from "#app/services/session/user-context.ts";
import { audioKey, chunkKey } from "#app/services/storage/keys.ts";
import { purgeExpiredAudio } from "#app/services/visits/purge-audio.server.ts";
import { TEST_SITE_URL } from "#tests/setup/auth.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { bytesOf, call, openVisitHarness, seedVisit, sha256, type VisitHarness, type Who } from "./harness.ts";

// Issue 5 "Storage": per-organisation audio retention (0–365 days, default 30 after the transcript
// is accepted) and the purge that deletes expired audio, keeps the transcript and audits it.

const DAY = 24 * 60 * 60 * 1000;

describeEachDatabase("audio retention", (target) => {
  let h: VisitHarness;

  beforeAll(async () => {
    h = await openVisitHarness(target);
  });

  afterAll(async () => {
    await h.close();
  });

  /** A transcribed visit with two stored chunks, its assembled audio and an engine transcript. */
  async function transcribedVisit(orgId: string, transcribedAt: Date) {
    const id = await seedVisit(h, { orgId });
    const chunks = [bytesOf(300, 1), bytesOf(200, 2)];
    for (const [seq, data] of chunks.entries()) await h.store.put(chunkKey(orgId, id, seq), data);
    const audio = Buffer.concat(chunks);
    const hash = sha256(audio);
    const key = audioKey(orgId, id, hash);
    await h.store.put(key, audio);
    await sql`update public.visits set status = 'transcribed', audio_source = 'chunks', audio_chunk_count = 2,
        audio_bytes = ${audio.length}, audio_sha256 = ${hash}, audio_key = ${key}, transcribed_at = ${transcribedAt}
      where id = ${id}`.execute(h.db.kysely);
    await sql`insert into public.transcriptions (org_id, visit_id, version, source, engine, language, text, audio_sha256)
      values (${orgId}, ${id}, 1, 'engine', 'fake', 'en', 'the patient reports tooth pain', ${hash})`.execute(h.db.kysely);
    return { id, key, chunkKeys: chunks.map((_, seq) => chunkKey(orgId, id, seq)) };
  }

  const patchOrg = (as: Who, json: unknown, orgId = h.a.orgId) =>
    call(h, orgRoute, { method: "PATCH", path: `/api/orgs/${orgId}`, params: { id: orgId }, json, as });

  const purgedAt = async (id: string) =>
    (
      await sql<{ audio_purged_at: Date | null; audio_key: string | null }>`
      select audio_purged_at, audio_key from public.visits where id = ${id}`.execute(h.db.kysely)
    ).rows[0];

  it("the API shows 30 days by default; owners and admins change it (audited), others get 403, out of range is 400", async () => {
    const before = await call(h, orgRoute, {
      method: "GET",
      path: `/api/orgs/${h.a.orgId}`,
      params: { id: h.a.orgId },
      as: "staff",
    });
    expect(before.body.audio_retention_days).toBe(30);
    for (const role of ["clinician", "staff"] as const) {
      const refused = await patchOrg(role, { audio_retention_days: 7 });
      expect(refused.status, role).toBe(403);
    }
    for (const bad of [-1, 366, 1.5, "10"]) {
      const res = await patchOrg("owner", { audio_retention_days: bad });
      expect(res.status, String(bad)).toBe(400);
      expect(res.body.code).toBe("validation_failed");
    }
    const byAdmin = await patchOrg("admin", { audio_retention_days: 0 });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.audio_retention_days).toBe(0);
    const byOwner = await patchOrg("owner", { audio_retention_days: 365 });
    expect(byOwner.body.audio_retention_days).toBe(365);
    const { rows } = await sql<{ settings: Record<string, unknown> }>`
      select settings from public.organizations where id = ${h.a.orgId}`.execute(h.db.kysely);
    expect(rows[0]?.settings.audio_retention_days).toBe(365);
    const audit = await sql<{ details: { changes: Record<string, unknown> } }>`
      select details from public.audit_log where org_id = ${h.a.orgId} and action = 'org.updated' order by id`.execute(
      h.db.kysely,
    );
    expect(audit.rows.map((r) => r.details.changes.audio_retention_days)).toEqual([
      { from: 30, to: 0 },
      { from: 0, to: 365 },
    ]);
    await patchOrg("owner", { audio_retention_days: 30 });
  });

  it("Settings → Organisation saves the retention for a manager and refuses an out-of-range value", async () => {
    const owner = h.a.users.owner;
    const org = await call(h, orgRoute, { method: "GET", path: `/api/orgs/${h.a.orgId}`, params: { id: h.a.orgId } });
    const memberOrg = { ...org.body, role: "owner" } as MemberOrg;
    const submit = async (days: string) => {
      const context = h.context();
      context.set(userContext, { id: owner.id, email: owner.email });
      context.set(orgContext, {
        user: { id: owner.id, email: owner.email },
        org: memberOrg,
        role: "owner",
        orgs: [memberOrg],
        switchedFrom: null,
      });
      const body = new URLSearchParams({
        intent: "update",
        name: memberOrg.name,
        timezone: memberOrg.timezone,
        region: memberOrg.region,
        pms: memberOrg.pms,
        audio_retention_days: days,
      });
      const request = new Request(`${TEST_SITE_URL}/settings/organization`, { method: "POST", body });
      const result = (await organizationPage.action({ request, context, params: {} } as never)) as unknown;
      const loaded = await organizationPage.loader({
        request: new Request(`${TEST_SITE_URL}/settings/organization`),
        context,
        params: {},
      } as never);
      return { result, days: loaded.org.audio_retention_days };
    };
    const saved = await submit("12");
    expect(saved.result).toEqual({ intent: "update", done: true });
    expect(saved.days).toBe(12);
    for (const bad of ["366", "-1", "", "4.5", "abc"]) {
      const refused = await submit(bad);
      expect(refused.result, bad).toMatchObject({
        data: { intent: "update", failure: { code: "invalid_retention" } },
        init: { status: 400 },
      });
      expect(refused.days).toBe(12);
    }
    await patchOrg("owner", { audio_retention_days: 30 });
  });

  it("the purge deletes audio only once the retention has run out, keeps the transcript and audits it", async () => {
    const transcribedAt = new Date(Date.now() - DAY);
    const visit = await transcribedVisit(h.a.orgId, transcribedAt);
    const draft = await seedVisit(h);
    const scope = { db: h.db, store: h.store, orgIds: [h.a.orgId] };

    // Default 30 days: a day before the end nothing goes.
    expect(await purgeExpiredAudio({ ...scope, now: new Date(transcribedAt.getTime() + 29 * DAY) })).toBe(0);
    expect(await h.store.exists(visit.key)).toBe(true);

    const now = new Date(transcribedAt.getTime() + 30 * DAY + 1000);
    expect(await purgeExpiredAudio({ ...scope, now })).toBe(1);
    for (const key of [visit.key, ...visit.chunkKeys]) expect(await h.store.exists(key), key).toBe(false);
    expect(await purgedAt(visit.id)).toEqual({ audio_purged_at: now, audio_key: null });

    const shown = await call(h, visitRoute, { method: "GET", path: `/api/visits/${visit.id}`, params: { id: visit.id } });
    expect(shown.body.status).toBe("transcribed");
    expect(shown.body.transcription.text).toBe("the patient reports tooth pain");

    const audit = await sql<{ actor_id: string | null; details: Record<string, unknown> }>`
      select actor_id, details from public.audit_log where entity_id = ${visit.id} and action = 'visit.audio_purged'`.execute(
      h.db.kysely,
    );
    expect(audit.rows).toEqual([
      { actor_id: null, details: { retention_days: 30, transcribed_at: transcribedAt.toISOString() } },
    ]);
    // Idempotent: a second run (another process, the next hour) finds nothing more.
    expect(await purgeExpiredAudio({ ...scope, now })).toBe(0);
    expect((await purgedAt(draft))?.audio_purged_at).toBeNull();
  });

  it("each organisation's own retention applies: 0 days purges at the next run, another org keeps its audio", async () => {
    const transcribedAt = new Date(Date.now() - 60_000);
    const mine = await transcribedVisit(h.b.orgId, transcribedAt);
    const theirs = await transcribedVisit(h.a.orgId, transcribedAt);
    const set = await patchOrg("outsider", { audio_retention_days: 0 }, h.b.orgId);
    expect(set.status).toBe(200);
    const scope = { db: h.db, store: h.store, orgIds: [h.a.orgId, h.b.orgId] };
    expect(await purgeExpiredAudio(scope)).toBe(1);
    expect(await h.store.exists(mine.key)).toBe(false);
    expect(await h.store.exists(theirs.key)).toBe(true);
    expect((await purgedAt(theirs.id))?.audio_purged_at).toBeNull();
  });

  it("a visit not yet transcribed keeps its audio whatever the retention", async () => {
    await patchOrg("outsider", { audio_retention_days: 0 }, h.b.orgId);
    const id = await seedVisit(h, { orgId: h.b.orgId, status: "uploaded" });
    const key = audioKey(h.b.orgId, id, sha256("x"));
    await h.store.put(key, new TextEncoder().encode("x"));
    await sql`update public.visits set audio_key = ${key}, audio_sha256 = ${sha256("x")} where id = ${id}`.execute(h.db.kysely);
    expect(
      await purgeExpiredAudio({ db: h.db, store: h.store, orgIds: [h.b.orgId], now: new Date(Date.now() + 400 * DAY) }),
    ).toBe(0);
    expect(await h.store.exists(key)).toBe(true);
  });
});
