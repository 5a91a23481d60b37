import { RouterContextProvider } from "react-router";
import { type RequestInfo, requestInfoContext, runtimeContext } from "./context.ts";
import type { Runtime } from "./runtime.server.ts";

/** The per-request context handed to React Router: the shared runtime and this request's facts. */
export function createLoadContext(runtime: Runtime, info?: RequestInfo): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(runtimeContext, runtime);
  if (info) context.set(requestInfoContext, info);
  return context;
}
