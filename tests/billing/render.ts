import { createElement, type ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { createRoutesStub } from "react-router";
import { getInstance, i18nextMiddleware } from "#app/middleware/i18next.server.ts";
import { TEST_SITE_URL } from "#tests/setup/auth.ts";
import { createTestContext } from "#tests/setup/context.ts";

/** Server-renders `element` at `path`, in that path's language, the way the document render does. */
export async function renderAt(path: string, element: ReactElement): Promise<string> {
  const context = createTestContext();
  let html = "";
  await i18nextMiddleware({ request: new Request(`${TEST_SITE_URL}${path}`), context, params: {} } as never, async () => {
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

/** The visible text of `html` with tags removed and spaces collapsed, for assertions on wording. */
export function textOf(html: string): string {
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}
