import type { OrgRole } from "#app/db/schema.ts";
import { type BootstrapErrorCode, bootstrapOrgs } from "./bootstrap.ts";
import { ORG_COOKIE } from "./cookie.ts";
import type { MemberOrg } from "./current-org.ts";

/** SPEC §3 "Organisation store", in the browser. The server resolves the organisation; this mirrors it. */
export interface OrgStoreState {
  status: "idle" | "loading" | "ready" | "error";
  currentOrgId: string | null;
  orgs: MemberOrg[];
  rolesByOrg: Record<string, OrgRole>;
  error: BootstrapErrorCode | null;
}

export const ORG_STORAGE_KEY = ORG_COOKIE;
const EMPTY: OrgStoreState = { status: "idle", currentOrgId: null, orgs: [], rolesByOrg: {}, error: null };

export interface OrgStoreDeps {
  fetch: typeof fetch;
  storage: Pick<Storage, "getItem" | "setItem" | "removeItem"> | null;
  setCookie(value: string): void;
  /** The page came over https: the cookie is then Secure. */
  secure?: boolean;
  timeoutMs: number;
  /** SPEC §2/§4: public pages and `showCompletion=true` never bootstrap. */
  shouldSkip(): boolean;
  log?(message: string, error: unknown): void;
}

export function createOrgStore(deps: OrgStoreDeps) {
  let state = EMPTY;
  // Bumped by everything that decides the organisation (a page the server resolved, a switch, sign
  // out). A bootstrap started before one of those must not overwrite it when its fetches return
  // late: signing in and accepting an invitation at once used to land the user back in their
  // personal organisation, because the sign-in bootstrap wrote its cookie after the server's.
  let generation = 0;
  const listeners = new Set<() => void>();
  const set = (next: OrgStoreState) => {
    state = next;
    for (const listener of listeners) listener();
  };
  const remember = (orgId: string) => {
    deps.storage?.setItem(ORG_STORAGE_KEY, orgId);
    // Secure over https, as the server sets it (cookie.ts); a plain-http install could not send it back.
    deps.setCookie(`${ORG_COOKIE}=${orgId}; Path=/; Max-Age=31536000; SameSite=Lax${deps.secure ? "; Secure" : ""}`);
  };
  const ready = (orgs: MemberOrg[], currentOrgId: string) =>
    set({
      status: "ready",
      currentOrgId,
      orgs,
      rolesByOrg: Object.fromEntries(orgs.map((org) => [org.id, org.role])),
      error: null,
    });

  const store = {
    getState: () => state,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** The app layout hands over what the server resolved for this page. */
    hydrate(org: MemberOrg, orgs: MemberOrg[]) {
      if (state.status === "ready" && state.currentOrgId === org.id && state.orgs === orgs) return;
      generation++;
      ready(orgs, org.id);
      if (deps.storage?.getItem(ORG_STORAGE_KEY) !== org.id) remember(org.id);
    },
    /** Writes the current organisation back to storage and cookie (after the migration cleanup removed them). */
    persist() {
      if (state.currentOrgId) remember(state.currentOrgId);
    },
    /** SPEC §4 bootstrap against the REST API (after sign-in in this tab, or a manual retry). */
    async bootstrap(): Promise<void> {
      if (deps.shouldSkip() || state.status === "loading") return;
      const preferred = [state.currentOrgId, deps.storage?.getItem(ORG_STORAGE_KEY) ?? null];
      const started = ++generation;
      set({ ...state, status: "loading", error: null });
      const result = await bootstrapOrgs<MemberOrg>(
        {
          loadOrgs: () => getJson<MemberOrg[]>(deps.fetch, "/api/orgs"),
          ensurePersonal: async () => (await getJson<{ id: string }>(deps.fetch, "/api/orgs/personal", "POST")).id,
          timeoutMs: deps.timeoutMs,
          ensureEagerly: true,
          log: deps.log,
        },
        preferred,
      );
      // Overtaken while in flight: what the server or the user decided since stands.
      if (generation !== started) return;
      if (result.status === "error") {
        set({ ...state, status: "error", error: result.code });
        return;
      }
      ready(result.orgs, result.current.id);
      remember(result.current.id);
    },
    /** SPEC §4: manual retry clears id, list and roles, then bootstraps again. */
    retry(): Promise<void> {
      set(EMPTY);
      return store.bootstrap();
    },
    /** SPEC §4: switching to the current organisation or to an empty id does nothing. Returns whether it switched. */
    switchTo(orgId: string | null | undefined): boolean {
      if (!orgId || orgId === state.currentOrgId || !state.rolesByOrg[orgId]) return false;
      generation++;
      set({ ...state, currentOrgId: orgId });
      remember(orgId);
      return true;
    },
    /** SPEC §4 SIGNED_OUT: id, list and roles go; the stored key and cookie are cleared by the auth store. */
    clear() {
      generation++;
      set(EMPTY);
    },
  };
  return store;
}

export type OrgStore = ReturnType<typeof createOrgStore>;

async function getJson<T>(fetchImpl: typeof fetch, path: string, method = "GET"): Promise<T> {
  const res = await fetchImpl(path, { method, credentials: "same-origin", headers: { accept: "application/json" } });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}`);
  return (await res.json()) as T;
}
