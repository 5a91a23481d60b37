import type { AuthRoute } from "./http.server.ts";
import { adminRoutes } from "./routes-admin.server.ts";
import { coreRoutes } from "./routes-core.server.ts";
import { healthRoutes } from "./routes-health.server.ts";
import { mfaRoutes } from "./routes-mfa.server.ts";

/** Every endpoint of the embedded auth API; each group lives in its own module. */
export const routes: AuthRoute[] = [...healthRoutes, ...coreRoutes, ...mfaRoutes, ...adminRoutes];
