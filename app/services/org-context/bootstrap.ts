/**
 * SPEC §4 "Organisation bootstrap", written once and used on both sides: the app layout's middleware
 * runs it against the database on every signed-in page request (the server is the authority), and
 * the browser's organisation store runs it against the REST API when it has to (after sign-in, on a
 * manual retry). idle → loading → ready | error.
 */

export interface BootstrapOrg {
  id: string;
  kind: string;
}

export type BootstrapErrorCode = "org_bootstrap_failed" | "org_none_accessible" | "org_bootstrap_timeout";

/** The English texts of SPEC §8; pages show the translation of `code` (errors.json "orgBootstrap"). */
export const BOOTSTRAP_MESSAGES: Record<BootstrapErrorCode, string> = {
  org_bootstrap_failed: "Failed to initialize organization context",
  org_none_accessible: "No accessible organizations found. Please contact support.",
  org_bootstrap_timeout: "Organization setup timed out",
};

export type BootstrapResult<O extends BootstrapOrg> =
  | { status: "ready"; orgs: O[]; current: O }
  | { status: "error"; code: BootstrapErrorCode; message: string };

export interface BootstrapDeps<O extends BootstrapOrg> {
  /** The user's organisations with their role. A failure here is an error state (SPEC §8). */
  loadOrgs(): Promise<O[]>;
  /** ensure_personal_org(): returns the id. Failures are tolerated and logged (SPEC §8). */
  ensurePersonal(): Promise<string>;
  timeoutMs: number;
  /**
   * Whether to ensure the personal organisation before choosing even when organisations loaded.
   * The browser does (SPEC: "the personal organisation just ensured"); the server skips the write on
   * the hot path when the remembered organisation is still accessible.
   */
  ensureEagerly?: boolean;
  log?(message: string, error: unknown): void;
}

/**
 * SPEC §4 choice order: the preferred ids in order (last used, then persisted) when still accessible,
 * then the personal organisation just ensured, then the first in the list.
 */
export function chooseOrg<O extends BootstrapOrg>(
  orgs: readonly O[],
  preferred: readonly (string | null | undefined)[],
  personalId?: string | null,
): O | undefined {
  for (const id of preferred) {
    const hit = id ? orgs.find((org) => org.id === id) : undefined;
    if (hit) return hit;
  }
  const personal = personalId ? orgs.find((org) => org.id === personalId) : orgs.find((org) => org.kind === "personal");
  return personal ?? orgs[0];
}

class BootstrapTimeout extends Error {}

export async function bootstrapOrgs<O extends BootstrapOrg>(
  deps: BootstrapDeps<O>,
  preferred: readonly (string | null | undefined)[],
): Promise<BootstrapResult<O>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BootstrapTimeout()), deps.timeoutMs);
  });
  try {
    return await Promise.race([run(deps, preferred), timeout]);
  } catch (error) {
    if (error instanceof BootstrapTimeout) return failure("org_bootstrap_timeout");
    deps.log?.("organisation bootstrap failed", error);
    return failure("org_bootstrap_failed");
  } finally {
    clearTimeout(timer);
  }
}

async function run<O extends BootstrapOrg>(
  deps: BootstrapDeps<O>,
  preferred: readonly (string | null | undefined)[],
): Promise<BootstrapResult<O>> {
  let personalId: string | null = null;
  const ensure = async () => {
    try {
      personalId = await deps.ensurePersonal();
    } catch (error) {
      deps.log?.("personal organisation could not be ensured", error);
    }
  };
  if (deps.ensureEagerly) await ensure();
  let orgs = await deps.loadOrgs();
  if (!deps.ensureEagerly && orgs.length > 0 && !preferred.some((id) => id && orgs.some((o) => o.id === id))) {
    // Nothing remembered is usable: make sure the personal organisation exists before falling back to it.
    if (!orgs.some((org) => org.kind === "personal")) {
      await ensure();
      if (personalId) orgs = await deps.loadOrgs();
    }
  }
  if (orgs.length === 0) {
    // The one emergency creation (SPEC §4).
    await ensure();
    if (personalId) orgs = await deps.loadOrgs();
  }
  const current = chooseOrg(orgs, preferred, personalId);
  if (!current) return failure("org_none_accessible");
  return { status: "ready", orgs, current };
}

function failure(code: BootstrapErrorCode): { status: "error"; code: BootstrapErrorCode; message: string } {
  return { status: "error", code, message: BOOTSTRAP_MESSAGES[code] };
}
