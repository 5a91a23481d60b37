import type { AuthRoute } from "./http.server.ts";

export const adminRoutes: AuthRoute[] = [];
