import http from "node:http";
import type { AddressInfo } from "node:net";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { createShutdown, type ShutdownOptions } from "../../server/shutdown.ts";

// The shutdown sequence (server/shutdown.ts) with a real HTTP server and stand-ins for the job
// runner and the database, so each way it can be held up is tried: the process always ends, and
// the database is always asked to close first. The whole server: tests/server/shutdown-jobs.test.ts.

const TIMEOUT_MS = 1500;

const servers: http.Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function startServer(handler: http.RequestListener = (_req, res) => res.end("ok")) {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function setUp(server: http.Server, overrides: Partial<ShutdownOptions> = {}) {
  const events: string[] = [];
  let started = 0;
  let resolveExit: (value: { clean: boolean; at: number }) => void = () => {};
  const exited = new Promise<{ clean: boolean; at: number }>((resolve) => {
    resolveExit = resolve;
  });
  const { shutdown } = createShutdown({
    server,
    logger: pino({ level: "silent" }),
    timeoutMs: TIMEOUT_MS,
    stopJobs: async () => {
      events.push("stop jobs");
    },
    close: async () => {
      events.push("close");
    },
    exit: (_signal, clean) => {
      events.push("exit");
      resolveExit({ clean, at: Date.now() - started });
    },
    ...overrides,
  });
  return {
    events,
    exited,
    shutdown: (signal: NodeJS.Signals = "SIGTERM") => {
      started ||= Date.now();
      shutdown(signal);
    },
  };
}

describe("shutdown", () => {
  it("stops the jobs, lets a request in flight finish, closes, and exits clean", async () => {
    let release = () => {};
    const { server, url } = await startServer((_req, res) => {
      release = () => res.end("done");
    });
    const t = setUp(server);
    const inFlight = fetch(url).then((r) => r.text());
    await new Promise((r) => setTimeout(r, 50));
    t.shutdown();
    setTimeout(() => release(), 100);
    expect(await inFlight).toBe("done");
    expect(await t.exited).toMatchObject({ clean: true });
    expect(t.events).toEqual(["stop jobs", "close", "exit"]);
  });

  it("ends an open event stream at once instead of waiting for it", async () => {
    const { server, url } = await startServer((_req, res) => {
      // As @react-router/express sends headers: one by one (res.append), so they can be read back.
      res.setHeader("content-type", "text/event-stream");
      res.write("retry: 2000\n\n");
    });
    let signal: AbortSignal | null = null;
    const t = setUp(server, {
      stopJobs: async (options) => {
        signal = options.signal;
      },
    });
    const stream = await fetch(url);
    const ended = stream.body?.pipeTo(new WritableStream()).then(
      () => "ended",
      () => "ended",
    );
    t.shutdown();
    expect(await ended).toBe("ended");
    expect(await t.exited).toMatchObject({ clean: true });
    // Done before the deadline: nothing had to be hurried.
    expect((signal as AbortSignal | null)?.aborted).toBe(false);
  });

  it("a database that never closes: the process still ends, not clean", async () => {
    const { server } = await startServer();
    const t = setUp(server, {
      close: () => {
        t.events.push("close");
        return new Promise(() => {});
      },
    });
    t.shutdown();
    expect(await t.exited).toMatchObject({ clean: false });
    expect(t.events).toEqual(["stop jobs", "close", "exit"]);
  });

  it("jobs that never hand back: at the deadline they are told to hurry, the database is still closed, the process ends", async () => {
    const { server } = await startServer();
    let hurried = false;
    const t = setUp(server, {
      close: async ({ jobsStopped }) => {
        t.events.push(jobsStopped ? "close" : "close without waiting for jobs");
      },
      stopJobs: ({ signal }) => {
        t.events.push("stop jobs");
        signal.addEventListener("abort", () => {
          hurried = true;
        });
        return new Promise(() => {});
      },
    });
    t.shutdown();
    expect(await t.exited).toMatchObject({ clean: false });
    expect(hurried).toBe(true);
    // Told not to wait for the stuck job stop, so the database does close.
    expect(t.events).toEqual(["stop jobs", "close without waiting for jobs", "exit"]);
  });

  it("a request that never ends is cut at the deadline; the database is still closed before the exit", async () => {
    const { server, url } = await startServer(() => {
      // never answers
    });
    const t = setUp(server);
    const hanging = fetch(url).then(
      () => "answered",
      () => "cut",
    );
    await new Promise((r) => setTimeout(r, 50));
    t.shutdown();
    expect(await hanging).toBe("cut");
    expect(await t.exited).toMatchObject({ clean: false });
    expect(t.events).toEqual(["stop jobs", "close", "exit"]);
  });

  it("a second signal hurries the jobs at once and goes on to close; a third ends the process on the spot", async () => {
    const { server } = await startServer();
    let hurriedAt = 0;
    const started = Date.now();
    const t = setUp(server, {
      stopJobs: ({ signal }) =>
        new Promise<void>((resolve) => {
          t.events.push("stop jobs");
          signal.addEventListener("abort", () => {
            hurriedAt = Date.now() - started;
            resolve();
          });
        }),
    });
    t.shutdown();
    await new Promise((r) => setTimeout(r, 20));
    t.shutdown();
    const exit = await t.exited;
    expect(exit.clean).toBe(true);
    // Hurried by the signal, long before the deadline would have (TIMEOUT_MS less the close reserve).
    expect(hurriedAt).toBeLessThan(TIMEOUT_MS - TIMEOUT_MS / 3);
    expect(t.events).toEqual(["stop jobs", "close", "exit"]);

    const { server: other } = await startServer();
    const u = setUp(other, { close: () => new Promise(() => {}) });
    u.shutdown();
    u.shutdown();
    u.shutdown();
    expect(await u.exited).toMatchObject({ clean: false });
  });
});
