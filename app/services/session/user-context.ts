import { createContext } from "react-router";

export interface SessionUser {
  id: string;
  email: string;
}

/** The signed-in user for this request; the session middleware (accounts) fills it. */
export const userContext = createContext<SessionUser | null>(null);
