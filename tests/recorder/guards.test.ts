// Issue 5: warn before leaving while chunks are unsent, and tell the auth store a recording is active
// (SPEC §4 Tab visibility: 30 min instead of 5 before a reload).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  type BeforeUnloadEventLike,
  installBeforeUnloadGuard,
  registerRecorderAuthHooks,
} from "#app/services/recorder/guards.ts";
import { createHarness, flush, signIn } from "#tests/fixtures/auth-client-fakes.ts";
import { audioBytes, ORG_A, settle, USER, until, useRecorderClock, VISIT } from "./fakes.ts";
import { openTab } from "./harness.ts";

beforeEach(() => useRecorderClock());
afterEach(() => vi.useRealTimers());

class UnloadTarget {
  private listener: ((event: BeforeUnloadEventLike) => void) | null = null;
  addEventListener(_type: "beforeunload", listener: (event: BeforeUnloadEventLike) => void) {
    this.listener = listener;
  }
  removeEventListener() {
    this.listener = null;
  }
  /** Fires beforeunload; true when the page asked the browser to confirm leaving. */
  leave(): boolean {
    let prevented = false;
    const event = {
      returnValue: undefined as unknown,
      preventDefault() {
        prevented = true;
      },
    };
    this.listener?.(event);
    return prevented && event.returnValue === "";
  }
}

describe("beforeunload", () => {
  it("warns only while audio is unsent or a recording runs", async () => {
    const tab = openTab();
    const win = new UnloadTarget();
    installBeforeUnloadGuard(win, tab.runtime);
    expect(win.leave()).toBe(false);

    await tab.runtime.recorder.start({ visitId: VISIT, orgId: ORG_A, userId: USER });
    expect(win.leave()).toBe(true);

    tab.server.offline = true;
    tab.media.emit(audioBytes(0));
    tab.media.finalBytes = audioBytes(1);
    await tab.runtime.recorder.stop();
    await settle();
    expect(tab.runtime.isRecording()).toBe(false);
    expect(win.leave()).toBe(true); // stopped, but two chunks and the manifest are still here

    tab.server.offline = false;
    tab.runtime.queue.handleOnline();
    await until(() => tab.server.finished.has(VISIT), "finished");
    expect(win.leave()).toBe(false);
  });

  it("is removed by its disposer", async () => {
    const tab = openTab();
    const win = new UnloadTarget();
    const remove = installBeforeUnloadGuard(win, tab.runtime);
    await tab.runtime.recorder.start({ visitId: VISIT, orgId: ORG_A, userId: USER });
    remove();
    expect(win.leave()).toBe(false);
  });
});

describe("auth store hooks", () => {
  it("a recording keeps the page from reloading after 10 min away; without one it reloads", async () => {
    const h = createHarness({ pathname: "/transcribing" });
    signIn(h);
    await vi.advanceTimersByTimeAsync(0);
    const tab = openTab();
    expect(registerRecorderAuthHooks(h.store, tab.runtime)).toBe(true);

    await tab.runtime.recorder.start({ visitId: VISIT, orgId: ORG_A, userId: USER });
    h.setVisibility("hidden");
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    h.setVisibility("visible");
    await flush();
    expect(h.location.reloads).toBe(0);

    await tab.runtime.recorder.stop();
    h.setVisibility("hidden");
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    h.setVisibility("visible");
    await flush();
    expect(h.location.reloads).toBe(1);
  });

  it("is skipped when the auth store has not started yet", () => {
    expect(registerRecorderAuthHooks(null, openTab().runtime)).toBe(false);
  });
});
