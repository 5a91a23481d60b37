import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "#app/utils/env.server.ts";
import { createWorkerHttpServer } from "../../server/worker-http.ts";

// Issue 25 "Web and worker roles" (ADR 0038): the role is validated at start-up, and a worker
// process answers the health probes and nothing else.

describe("MURMUR_ROLE", () => {
  it("defaults to all, with or without DATABASE_URL", () => {
    expect(parseEnv({}).MURMUR_ROLE).toBe("all");
    expect(parseEnv({ MURMUR_ROLE: "" }).MURMUR_ROLE).toBe("all");
    expect(parseEnv({ DATABASE_URL: "postgres://u@db:5432/murmur" }).MURMUR_ROLE).toBe("all");
  });

  it("accepts web and worker on a server PostgreSQL", () => {
    const url = "postgres://u@db:5432/murmur";
    expect(parseEnv({ MURMUR_ROLE: "web", DATABASE_URL: url }).MURMUR_ROLE).toBe("web");
    expect(parseEnv({ MURMUR_ROLE: "worker", DATABASE_URL: url }).MURMUR_ROLE).toBe("worker");
  });

  it("refuses web and worker on the embedded database, saying why", () => {
    for (const role of ["web", "worker"]) {
      expect(() => parseEnv({ MURMUR_ROLE: role })).toThrow(EnvError);
      expect(() => parseEnv({ MURMUR_ROLE: role })).toThrow(/MURMUR_ROLE=\w+ needs DATABASE_URL.*one process/);
    }
  });

  it("refuses an unknown role", () => {
    expect(() => parseEnv({ MURMUR_ROLE: "jobs", DATABASE_URL: "postgres://u@db/m" })).toThrow(/MURMUR_ROLE/);
  });

  it("JOBS_SUPERVISE_SECONDS defaults to 60 and must be a whole number of seconds ≥ 1", () => {
    expect(parseEnv({}).JOBS_SUPERVISE_SECONDS).toBe(60);
    expect(parseEnv({ JOBS_SUPERVISE_SECONDS: "5" }).JOBS_SUPERVISE_SECONDS).toBe(5);
    expect(() => parseEnv({ JOBS_SUPERVISE_SECONDS: "0" })).toThrow(/JOBS_SUPERVISE_SECONDS/);
  });
});

describe("a worker's HTTP server", () => {
  let close = async () => {};
  afterEach(() => close());

  const start = async (ready: () => Promise<boolean>) => {
    const server = createWorkerHttpServer({ ready, build: "b1" });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    close = () => new Promise((resolve) => server.close(() => resolve()));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  it("answers /healthz and /readyz like a web process, with its role", async () => {
    const url = await start(async () => true);
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect(health.headers.get("cache-control")).toBe("no-store");
    expect(await health.json()).toEqual({ status: "ok", build: "b1", role: "worker" });
    const ready = await fetch(`${url}/readyz?probe=1`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ok", database: "ok", role: "worker" });
    expect((await fetch(`${url}/healthz`, { method: "HEAD" })).status).toBe(200);
  });

  it("is not ready while the database does not answer, or its probe throws", async () => {
    let url = await start(async () => false);
    let ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: "unavailable", database: "unreachable" });
    await close();
    url = await start(async () => {
      throw new Error("connection refused");
    });
    ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(503);
  });

  it("serves no page or API: 404 for any other path, 405 for another method", async () => {
    const url = await start(async () => true);
    for (const path of ["/", "/login", "/api/visits", "/auth/v1/token"]) {
      const res = await fetch(`${url}${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.json()).toEqual({ code: "not_found", message: "Not Found" });
    }
    const post = await fetch(`${url}/healthz`, { method: "POST", body: "x" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
  });
});
