import type { AuthRoute } from "./http.server.ts";
import { healthRoutes } from "./routes-health.server.ts";

/** Every endpoint of the embedded auth API; each group lives in its own module. */
export const routes: AuthRoute[] = [...healthRoutes];
