import type { AuthRoute } from "./http.server.ts";

export const mfaRoutes: AuthRoute[] = [];
