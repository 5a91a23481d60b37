import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, createLogSink } from "#app/utils/logger.server.ts";

// The server's log destination (app/utils/logger.server.ts): never blocks, never throws, holds at
// most a bounded amount for a slow reader, counts what it drops. The same with a real child
// process and a real pipe: tests/server/log-reader.test.ts.

/** A stream whose reader takes nothing until `release()`: its writableLength grows like a full pipe's. */
function stalledStream() {
  const received: string[] = [];
  let pending: (() => void)[] = [];
  let stalled = true;
  const stream = new Writable({
    highWaterMark: 1024,
    write(chunk, _encoding, callback) {
      received.push(String(chunk));
      if (stalled) pending.push(() => callback());
      else callback();
    },
  });
  return {
    stream,
    received,
    release() {
      stalled = false;
      const waiting = pending;
      pending = [];
      for (const done of waiting) done();
    },
  };
}

const line = (n: number) => `${JSON.stringify({ level: 30, n, msg: "x".repeat(80) })}\n`;

describe("the log sink", () => {
  it("keeps at most its limit for a reader that stopped reading, drops and counts the rest, and says so once the reader is back", async () => {
    const { stream, received, release } = stalledStream();
    const sink = createLogSink(stream, { limitBytes: 10_000 });
    for (let n = 0; n < 1000; n += 1) sink.write(line(n));
    expect(stream.writableLength).toBeLessThanOrEqual(10_000);
    expect(sink.dropped).toBeGreaterThan(800);
    expect(await sink.flush(50)).toBe(false);

    release();
    expect(await sink.flush(1000)).toBe(true);
    sink.write(line(1000));
    const report = received.map((l) => JSON.parse(l)).find((l) => l.msg === "log output stalled: lines dropped");
    expect(report).toMatchObject({ level: 40, dropped: sink.dropped });
    // The line that came after the report is there, in order.
    expect(JSON.parse(received.at(-1) as string)).toMatchObject({ n: 1000 });
  });

  it("turns into a counter when the reader is gone (EPIPE), without throwing or an unhandled 'error'", async () => {
    const stream = new Writable({
      write(_chunk, _encoding, callback) {
        callback(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
      },
    });
    const sink = createLogSink(stream);
    sink.write(line(0));
    await new Promise((r) => setImmediate(r));
    expect(sink.broken).toBe(true);
    for (let n = 1; n <= 10; n += 1) sink.write(line(n));
    expect(sink.dropped).toBe(10);
    expect(await sink.flush(1000)).toBe(false);
  });

  it("drops a line a synchronous stream refuses (a full disk) and carries on", () => {
    let fail = true;
    const target = {
      writableLength: 0,
      write(chunk: string) {
        if (fail) throw Object.assign(new Error("ENOSPC"), { code: "ENOSPC" });
        written.push(chunk);
        return true;
      },
      on() {},
    };
    const written: string[] = [];
    const sink = createLogSink(target);
    sink.write(line(0));
    expect(sink.dropped).toBe(1);
    fail = false;
    sink.write(line(1));
    expect(written.some((l) => l.includes("lines dropped"))).toBe(true);
    expect(written.at(-1)).toBe(line(1));
  });

  it("is what the logger writes to: a stalled reader costs the logger nothing", () => {
    const { stream } = stalledStream();
    const sink = createLogSink(stream, { limitBytes: 4096 });
    const logger = createLogger("info", { destination: sink });
    for (let n = 0; n < 500; n += 1) logger.info({ n }, "request completed");
    expect(stream.writableLength).toBeLessThanOrEqual(4096);
    expect(sink.dropped).toBeGreaterThan(400);
  });
});
