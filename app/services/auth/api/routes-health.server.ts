import type { AuthRoute } from "./http.server.ts";
import { json } from "./http.server.ts";

export const AUTH_API_VERSION = "murmur-auth/1";

export const healthRoutes: AuthRoute[] = [
  {
    method: "GET",
    path: "/health",
    handler: async () =>
      json({ version: AUTH_API_VERSION, name: "GoTrue", description: "Murmur's embedded GoTrue-compatible auth API" }),
  },
  {
    method: "GET",
    path: "/settings",
    handler: async ({ auth }) =>
      json({
        external: { email: true, phone: false, anonymous_users: false },
        disable_signup: auth.config.disableSignup,
        mailer_autoconfirm: auth.config.autoconfirm,
        phone_autoconfirm: false,
        sms_provider: "outbox",
        saml_enabled: false,
      }),
  },
  {
    method: "GET",
    path: "/.well-known/jwks.json",
    handler: async ({ auth }) => json({ keys: [auth.keys.publicJwk] }, 200, { "Cache-Control": "public, max-age=600" }),
  },
];
