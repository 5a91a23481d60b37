import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { AppHeader } from "#app/components/app-header.tsx";
import { NavigationFallbackBanner } from "#app/components/navigation-fallback-banner.tsx";
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

describe("signed-in app header", () => {
  it("lists the seven sections in the page's language, with localized links", async () => {
    const html = await render("/fr/dashboard", createElement(AppHeader, { user }));
    for (const label of [
      "Tableau de bord",
      "Transcription",
      "Codage",
      "Questions sur les dossiers",
      "Charting parodontal",
      "Modèles personnalisés",
      "Paramètres",
    ]) {
      expect(html).toContain(label);
    }
    expect(html).toContain('href="/fr/periodontal-chart"');
    expect(html).toContain("ana@example.test");
    expect(html).toContain('data-locale="es"');
  });

  it("uses unprefixed links in English", async () => {
    const html = await render("/settings", createElement(AppHeader, { user }));
    expect(html).toContain('href="/custom-templates"');
    expect(html).toContain("Records Q&amp;A");
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
