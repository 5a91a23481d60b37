import { createContext, useContext } from "react";

/**
 * The CSP nonce of this response. Provided around the server render (entry.server.tsx), so even
 * error pages rendered before any loader ran carry it; in the browser it is not needed after load.
 */
export const NonceContext = createContext<string>("");
export const NonceProvider = NonceContext.Provider;
export function useNonce(): string {
  return useContext(NonceContext);
}
