import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import {
  type EntryContext,
  type HandleErrorFunction,
  isRouteErrorResponse,
  type RouterContextProvider,
  ServerRouter,
} from "react-router";
import { getInstance } from "#app/middleware/i18next.server.ts";
import { requestInfoContext } from "#app/runtime/context.ts";
import { NonceProvider } from "#app/utils/nonce.ts";
import { reportServerError } from "#app/utils/sentry.server.ts";

// server.ts reaches the app's runtime through the build so there is one module graph.
export { checkDatabase } from "#app/db/health.server.ts";
export { BUILD_ID } from "#app/runtime/build-info.ts";
export { createLoadContext } from "#app/runtime/load-context.server.ts";
export { startRuntime } from "#app/runtime/runtime.server.ts";
export { startBackupControl } from "#app/services/backup/control-socket.server.ts";
export { parseEnv } from "#app/utils/env.server.ts";
export { initServerSentry } from "#app/utils/sentry.server.ts";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    const { nonce } = loadContext.get(requestInfoContext);
    let timeoutId: ReturnType<typeof setTimeout> | undefined;
    let finished = false;

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <I18nextProvider i18n={getInstance(loadContext)}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce || undefined} />
        </I18nextProvider>
      </NonceProvider>,
      {
        nonce: nonce || undefined,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              finished = true;
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          pipe(body);
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
        },
        onShellError(error: unknown) {
          clearTimeout(timeoutId);
          timeoutId = undefined;
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) reportServerError(error, { phase: "stream" });
        },
      },
    );
    // Started once `abort` exists: a timer set before the render call outlived a render that threw
    // (e.g. no i18n instance for a path no route matched) and then threw itself, uncaught (issue 25).
    if (!finished) timeoutId = setTimeout(() => abort(), streamTimeout + 1000);
  });
}

export const handleError: HandleErrorFunction = (error, { request }) => {
  // Aborted requests and thrown 4xx responses are expected, not errors worth reporting.
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  reportServerError(error, { url: request.url, method: request.method });
};
