// The browser wiring: constants against the spec and the server, the supabase-js client options
// (SPEC §9), startAuthClient() (public config → client → store) and the React hook's holder.
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as C from "#app/services/auth-client/constants.ts";
import { AUTH_COOKIE_NAME } from "#app/services/session/auth-mode.server.ts";

const createBrowserClient = vi.hoisted(() => vi.fn());
vi.mock("@supabase/ssr", () => ({ createBrowserClient }));
// sonner injects its CSS into `document` on import; the toast itself is covered by the store tests.
vi.mock("#app/components/toasts.tsx", () => ({ showSessionExpiredToast: () => {} }));

function fakeSupabase() {
  const listeners: string[] = [];
  return {
    listeners,
    auth: {
      onAuthStateChange: () => {
        listeners.push("auth");
        return { data: { subscription: { unsubscribe: () => {} } } };
      },
    },
  };
}

beforeEach(() => {
  vi.resetModules();
  createBrowserClient.mockReset();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe("constants", () => {
  it("use the server's session cookie name", () => {
    expect(C.BROWSER_AUTH_COOKIE_NAME).toBe(AUTH_COOKIE_NAME);
  });

  it("carry the SPEC §4/§9 values", () => {
    expect({
      redirect: C.SESSION_EXPIRED_REDIRECT_MS,
      toast: C.SESSION_EXPIRED_TOAST_MS,
      tokenFast: C.SIGN_OUT_TOKEN_WAIT_FAST_MS,
      tokenFull: C.SIGN_OUT_TOKEN_WAIT_FULL_MS,
      server: C.SERVER_LOGOUT_TIMEOUT_MS,
      client: C.CLIENT_SIGN_OUT_TIMEOUT_MS,
      idle: C.SIGN_OUT_FAST_PATH_IDLE_MS,
      retry: C.SIGN_OUT_REDIRECT_RETRY_MS,
      debounce: C.VISIBILITY_REFRESH_DEBOUNCE_MS,
      ignore: C.VISIBILITY_IGNORE_WINDOW_MS,
      reload: C.RELOAD_AFTER_AWAY_MS,
      reloadRecording: C.RELOAD_AFTER_AWAY_RECORDING_MS,
      recent: C.RECENT_AUTH_ERRORS_WINDOW_MS,
      alert: C.FAILED_LOGIN_ALERT_THRESHOLD,
      kept: C.AUTH_ERRORS_KEPT,
      maxAge: C.AUTH_COOKIE_MAX_AGE_S,
      version: C.MIGRATION_VERSION,
    }).toEqual({
      redirect: 2000,
      toast: 7000,
      tokenFast: 300,
      tokenFull: 600,
      server: 1200,
      client: 1000,
      idle: 120_000,
      retry: 80,
      debounce: 1500,
      ignore: 2000,
      reload: 300_000,
      reloadRecording: 1_800_000,
      recent: 300_000,
      alert: 3,
      kept: 5,
      maxAge: 34_560_000,
      version: "2.0.0-jwt-org-context",
    });
  });
});

describe("getBrowserSupabase", () => {
  it("creates one PKCE client on the shared session cookie (path /, lax, 400 days)", async () => {
    const client = fakeSupabase();
    createBrowserClient.mockReturnValue(client);
    const { getBrowserSupabase } = await import("#app/services/auth-client/browser-client.ts");
    const config = { supabaseUrl: "https://murmur.test", supabaseAnonKey: "anon-key" };
    expect(getBrowserSupabase(config)).toBe(client);
    expect(getBrowserSupabase(config)).toBe(client);
    expect(createBrowserClient).toHaveBeenCalledTimes(1);
    expect(createBrowserClient).toHaveBeenCalledWith("https://murmur.test", "anon-key", {
      isSingleton: true,
      // Not Secure here: the test runs without an https location (issue 10: Secure only over HTTPS).
      cookieOptions: { name: "sb-murmur-auth-token", path: "/", sameSite: "lax", maxAge: 400 * 24 * 60 * 60, secure: false },
      auth: { flowType: "pkce", autoRefreshToken: true, persistSession: true, detectSessionInUrl: false },
    });
  });
});

describe("startAuthClient", () => {
  function stubBrowser(configResponse: () => Promise<Response>) {
    const fetched: string[] = [];
    const documentListeners: string[] = [];
    vi.stubGlobal("fetch", (url: string) => {
      fetched.push(url);
      return configResponse();
    });
    vi.stubGlobal("window", { location: { pathname: "/dashboard" }, localStorage: { getItem: () => null }, sessionStorage: {} });
    vi.stubGlobal("document", {
      visibilityState: "visible",
      cookie: "",
      addEventListener: (type: string) => documentListeners.push(type),
    });
    return { fetched, documentListeners };
  }
  const config = { supabaseUrl: "https://murmur.test", supabaseAnonKey: "anon-key", buildId: "b1", locales: ["en", "fr", "es"] };

  it("fetches /api/public-config, creates the client and the store once, and listens to auth and visibility", async () => {
    const browser = stubBrowser(() => Promise.resolve(Response.json(config)));
    const client = fakeSupabase();
    createBrowserClient.mockReturnValue(client);
    const { startAuthClient } = await import("#app/services/auth-client/start.client.ts");
    const { getAuthStore } = await import("#app/services/auth-client/use-auth-store.ts");

    const first = startAuthClient();
    expect(startAuthClient()).toBe(first);
    const store = await first;
    expect(browser.fetched).toEqual(["/api/public-config"]);
    expect(createBrowserClient.mock.calls[0]?.slice(0, 2)).toEqual(["https://murmur.test", "anon-key"]);
    expect(client.listeners).toEqual(["auth"]);
    expect(browser.documentListeners).toEqual(["visibilitychange"]);
    expect(getAuthStore()).toBe(store);
  });

  it("rejects on a bad config and can be started again", async () => {
    let body: unknown = { supabaseUrl: "", supabaseAnonKey: "k", buildId: "b", locales: [] };
    stubBrowser(() => Promise.resolve(Response.json(body)));
    createBrowserClient.mockReturnValue(fakeSupabase());
    const { startAuthClient } = await import("#app/services/auth-client/start.client.ts");
    await expect(startAuthClient()).rejects.toThrow("/api/public-config: unexpected response shape");
    expect(createBrowserClient).not.toHaveBeenCalled();
    body = config;
    await expect(startAuthClient()).resolves.toBeDefined();
  });
});

describe("useAuthStore", () => {
  it("renders the initial state on the server and before the store starts", async () => {
    const { useAuthStore, getAuthStore } = await import("#app/services/auth-client/use-auth-store.ts");
    function Probe() {
      const loading = useAuthStore((s) => s.loading);
      const user = useAuthStore((s) => s.user);
      return createElement("p", null, `${loading}:${user?.email ?? "none"}`);
    }
    expect(getAuthStore()).toBeNull();
    expect(renderToString(createElement(Probe))).toBe("<p>true:none</p>");
  });

  it("follows the provided store", async () => {
    const { provideAuthStore, getAuthStore } = await import("#app/services/auth-client/use-auth-store.ts");
    const { createHarness, ANA, sessionFor } = await import("#tests/fixtures/auth-client-fakes.ts");
    const h = createHarness();
    provideAuthStore(h.store);
    expect(getAuthStore()).toBe(h.store);
    h.auth.emit("SIGNED_IN", sessionFor(ANA));
    expect(getAuthStore()?.getState().user).toEqual(ANA);
  });
});
