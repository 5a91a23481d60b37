import { createContext } from "react-router";
import type { Runtime } from "./runtime.server.ts";

/** The process-wide services (database, config, logger) every loader reaches through context. */
export const runtimeContext = createContext<Runtime>();

/** Per-request facts set by server.ts: the id in logs and the nonce the CSP allows scripts with. */
export interface RequestInfo {
  requestId: string;
  nonce: string;
  /** The client's address (X-Forwarded-For is believed only with TRUST_PROXY). */
  clientIp: string;
}
export const requestInfoContext = createContext<RequestInfo>({ requestId: "none", nonce: "", clientIp: "unknown" });
