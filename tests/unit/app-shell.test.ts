import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { NavigationFallbackBanner } from "#app/components/navigation-fallback-banner.tsx";
import { OrgBootstrapError } from "#app/components/org/org-bootstrap-error.tsx";
import { AppShell } from "#app/components/shell/app-shell.tsx";
import { getInstance, i18nextMiddleware } from "#app/middleware/i18next.server.ts";
import { createTestContext } from "#tests/setup/context.ts";

// Renders shell components the way the server does: the request's i18next instance, in a router.
async function render(path: string, element: React.ReactElement): Promise<string> {
  const context = createTestContext();
  let html = "";
  await i18nextMiddleware({ request: new Request(`http://murmur.test${path}`), context, params: {} } as never, async () => {
    html = renderToString(
      createElement(
        I18nextProvider,
        { i18n: getInstance(context) },
        createElement(createRoutesStub([{ path: "*", Component: () => element }]), { initialEntries: [path] }),
      ),
    );
    return new Response();
  });
  return html;
}

const user = { id: "6f1c1e2a-4d7b-4b8e-9a51-2f0a3d6c9e10", email: "ana@example.test" };
const practice = {
  id: "0b8f3c52-7d4e-4a61-9f0e-5c2d1a7b8e93",
  name: "Clinique Ruiz",
  slug: "clinique-ruiz",
  kind: "practice",
  plan: "trial",
  pms: "none",
  timezone: "Europe/Paris",
  region: "eu",
  trial_ends_at: null,
  role: "admin",
} as const;
const personal = {
  ...practice,
  id: "5a0c2b7e-1f3d-4c8a-b6e9-0d4f7a2c1e58",
  name: "Dr Ana's practice",
  kind: "personal",
  role: "owner",
} as const;
const header = {
  user,
  org: practice,
  orgs: [personal, practice],
  sidebarCollapsed: false,
  theme: "system" as const,
  children: null,
};
const AppHeader = (props: typeof header) => createElement(AppShell, props);

describe("signed-in app shell", () => {
  it("lists the eight sections in the sidebar in the page's language, with localized links", async () => {
    const html = await render("/fr/dashboard", createElement(AppHeader, header));
    for (const label of [
      "Tableau de bord",
      "Patients",
      "Transcription",
      "Codage",
      "Ask Murmur",
      "Charte parodontale",
      "Modèles personnalisés",
      "Paramètres",
    ]) {
      expect(html).toContain(label);
    }
    expect(html).toContain('href="/fr/periodontal-chart"');
    expect(html).toContain('href="/fr/patients"');
    expect(html).toContain("ana@example.test");
    expect(html).toContain('data-locale="es"');
  });

  it("shows the current organisation and a switch form per organisation with the role, the current one disabled", async () => {
    const html = await render("/fr/settings/members", createElement(AppHeader, header));
    expect(html).toContain('data-testid="current-org">Clinique Ruiz<');
    expect(html).toContain(`value="${personal.id}"`);
    expect(html).toMatch(new RegExp(`disabled=""[^>]*aria-current="true"[^>]*data-org-id="${practice.id}"`));
    expect(html).toContain("Propriétaire");
    expect(html).toContain("Administrateur");
    expect(html).toContain('value="/fr/settings/members"');
    expect(html).toContain('href="/fr/organizations/new"');
  });

  it("uses unprefixed links in English", async () => {
    const html = await render("/settings", createElement(AppHeader, header));
    expect(html).toContain('href="/custom-templates"');
    expect(html).toContain("Ask Murmur");
  });
});

describe("organisation bootstrap failure (SPEC §4, §8)", () => {
  it("shows the SPEC message in the page's language with a retry that forgets the organisation", async () => {
    const en = await render("/settings", createElement(OrgBootstrapError, { code: "org_none_accessible" }));
    expect(en).toContain("No accessible organizations found. Please contact support.");
    expect(en).toMatch(/<form action="\/_org" method="post">[\s\S]*name="intent" value="retry"/);
    expect(en).toContain('name="redirectTo" value="/settings"');
    const fr = await render("/fr/dashboard", createElement(OrgBootstrapError, { code: "org_bootstrap_failed" }));
    expect(fr).toContain("Échec de l&#x27;initialisation du contexte de l&#x27;organisation");
    expect(fr).toContain('action="/fr/logout"');
  });
});

describe("navigation fallback banner (SPEC §2)", () => {
  it("is rendered hidden, in Spanish, with its four links", async () => {
    const html = await render("/es/login", createElement(NavigationFallbackBanner));
    expect(html).toMatch(/<div[^>]*hidden=""[^>]*data-testid="navigation-fallback"/);
    expect(html).toContain("Se detectaron problemas de navegación");
    for (const path of ["/es/dashboard", "/es/transcribing", "/es/coding", "/es/settings"])
      expect(html).toContain(`href="${path}"`);
  });
});
