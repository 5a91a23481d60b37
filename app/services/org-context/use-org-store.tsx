import { useEffect, useSyncExternalStore } from "react";
import type { MemberOrg } from "./current-org.ts";
import { createOrgStore, type OrgStore, type OrgStoreState } from "./org-store.ts";

// One store per browser tab, created on first use after hydration (never on the server).
let store: OrgStore | null = null;
let bootstrapTimeoutMs = 5000;
let headerInstalled = false;

function isAppPath(pathname: string): boolean {
  return /^\/(?:(?:fr|es)\/)?(?:dashboard|transcribing|coding|records-qa|periodontal-chart|custom-templates|settings|organizations)(?:\/|$)/.test(
    pathname,
  );
}

export function browserOrgStore(): OrgStore {
  store ??= createOrgStore({
    fetch: (...args) => window.fetch(...args),
    storage: window.localStorage,
    setCookie: (value) => {
      // biome-ignore lint/suspicious/noDocumentCookie: the cookie is the server's hint, and Cookie Store API is not everywhere
      document.cookie = value;
    },
    secure: window.location.protocol === "https:",
    timeoutMs: bootstrapTimeoutMs,
    shouldSkip: () =>
      !isAppPath(window.location.pathname) || new URLSearchParams(window.location.search).get("showCompletion") === "true",
    log: (message, error) => console.error(message, error),
  });
  return store;
}

/**
 * SPEC §7: same-origin API calls carry the current organisation in `x-org-id`. Wrapping fetch once
 * means every feature's calls carry it without remembering to; the server still checks membership.
 */
function installOrgHeader(): void {
  if (headerInstalled) return;
  headerInstalled = true;
  const original = window.fetch.bind(window);
  window.fetch = (input, init) => {
    const orgId = store?.getState().currentOrgId;
    const url = new URL(input instanceof Request ? input.url : String(input), window.location.href);
    if (!orgId || url.origin !== window.location.origin || !url.pathname.startsWith("/api/")) return original(input, init);
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    if (!headers.has("x-org-id")) headers.set("x-org-id", orgId);
    return original(input, { ...init, headers });
  };
}

/** Hands what the server resolved for this page to the browser store (rendered by the app layout). */
export function OrgStoreSync({ org, orgs, timeoutMs }: { org: MemberOrg; orgs: MemberOrg[]; timeoutMs: number }) {
  useEffect(() => {
    bootstrapTimeoutMs = timeoutMs;
    installOrgHeader();
    browserOrgStore().hydrate(org, orgs);
  }, [org, orgs, timeoutMs]);
  return null;
}

const EMPTY_SNAPSHOT: OrgStoreState = { status: "idle", currentOrgId: null, orgs: [], rolesByOrg: {}, error: null };

export function useOrgStore(): OrgStoreState {
  return useSyncExternalStore(
    (listener) => (typeof window === "undefined" ? () => {} : browserOrgStore().subscribe(listener)),
    () => store?.getState() ?? EMPTY_SNAPSHOT,
    () => EMPTY_SNAPSHOT,
  );
}

/** The auth store's organisation hooks (SPEC §4 SIGNED_IN / SIGNED_OUT). */
export const orgAuthHooks = {
  onOrganisationLoad: () => {
    const current = browserOrgStore();
    // The server has already resolved the organisation for app pages it rendered; the migration
    // cleanup that runs just before this (SPEC §4) may have removed its cookie, so write it back.
    if (current.getState().status === "ready") return current.persist();
    return current.bootstrap();
  },
  onOrganisationClear: () => store?.clear(),
};
