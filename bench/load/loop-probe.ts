// Preloaded into the server by the hostile-mix bench (`node --import …/loop-probe.ts server.ts`):
// the web thread's event-loop delay (perf_hooks.monitorEventLoopDelay, 10 ms resolution) and the
// process's RSS, one JSON line per second appended to LOOP_PROBE_FILE. Nothing in the app changes.
import { appendFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { isMainThread } from "node:worker_threads";

const file = process.env.LOOP_PROBE_FILE;
// Worker threads inherit --import: only the web thread is measured.
if (file && isMainThread) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const timer = setInterval(() => {
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    const line = {
      t: Date.now(),
      p50: ms(histogram.percentile(50)),
      p99: ms(histogram.percentile(99)),
      max: ms(histogram.max),
      rssMiB: Math.round(process.memoryUsage.rss() / 1048576),
    };
    histogram.reset();
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  }, 1_000);
  timer.unref();
}
