import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Database } from "#app/db/database.server.ts";
import type { OrgRole } from "#app/db/schema.ts";
import { orgMiddleware } from "#app/middleware/org.server.ts";
import * as speechPage from "#app/routes/app/settings/speech.tsx";
import { runtimeContext } from "#app/runtime/context.ts";
import { userContext } from "#app/services/session/user-context.ts";
import { createEngineRegistry } from "#app/services/speech/engine.ts";
import { createWhisperEngine } from "#app/services/speech/whisper.server.ts";
import { TEST_SITE_URL } from "#tests/setup/auth.ts";
import { createTestContext } from "#tests/setup/context.ts";
import { describeEachDatabase } from "#tests/setup/databases.ts";
import { createAuthUser, createOrg } from "#tests/setup/orgs.ts";
import { makeTempDir } from "#tests/speech/synth.ts";

// Issue 15 §3: Settings → Speech through the organisation middleware, as React Router calls it.
// The registry is the runtime's: real Whisper engines whose files are junk and absent, so the page
// shows both refusals and no background decode is started by this test (engine-report.test.ts and
// the e2e cover the measurement).
const ROLES: OrgRole[] = ["owner", "admin", "clinician", "staff"];

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir());
});
afterAll(() => cleanup());

describeEachDatabase("Settings → Speech", (target) => {
  let db: Database;
  beforeAll(async () => {
    db = await target.open();
  });
  afterAll(async () => {
    await db.close();
  });

  it("owners and admins see each engine with its model or refusal; clinicians and staff get 403 forbidden_role", async () => {
    const junk = join(dir, "ggml-base.en.bin");
    writeFileSync(junk, Buffer.alloc(2000, 3));
    const registry = createEngineRegistry([
      createWhisperEngine({ modelPath: junk }),
      createWhisperEngine({ modelPath: join(dir, "absent.bin") }),
    ]);
    const users = {
      owner: await createAuthUser(db),
      admin: await createAuthUser(db),
      clinician: await createAuthUser(db),
      staff: await createAuthUser(db),
    } satisfies Record<OrgRole, { id: string; email: string }>;
    const orgId = await createOrg(
      db,
      ROLES.map((role) => ({ userId: users[role].id, role })),
    );
    for (const role of ROLES) {
      const context = createTestContext({ db });
      context.get(runtimeContext).speech = registry;
      context.set(userContext, { id: users[role].id, email: users[role].email });
      const request = new Request(`${TEST_SITE_URL}/settings/speech`, { headers: { cookie: `murmur-org=${orgId}` } });
      let status = 200;
      let data: unknown;
      await orgMiddleware({ request, context, params: {} } as never, async () => {
        try {
          data = await speechPage.loader({ request, context, params: {} } as never);
        } catch (thrown) {
          const init = thrown as { type?: string; data?: unknown; init?: ResponseInit | null };
          if (init.type !== "DataWithResponseInit") throw thrown;
          status = init.init?.status ?? 500;
          data = init.data;
        }
        return new Response(null, { status });
      });
      if (role === "owner" || role === "admin") {
        expect(status, role).toBe(200);
        const engines = (data as Awaited<ReturnType<typeof speechPage.loader>>).engines;
        expect(engines.map((e) => e.id)).toEqual(["whisper", "whisper"]);
        expect(engines[0]).toMatchObject({ model: null, refusal: { code: "model_corrupt" }, sampleWer: null });
        expect(engines[1]).toMatchObject({ model: null, refusal: { code: "model_missing" }, sampleWer: null });
      } else {
        expect(status, role).toBe(403);
        expect(data).toEqual({ code: "forbidden_role" });
      }
    }
  });
});
