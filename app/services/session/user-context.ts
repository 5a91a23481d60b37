import { createContext } from "react-router";
import type { RequestSupabase } from "./supabase.server.ts";

export interface SessionUser {
  id: string;
  email: string;
  /** True when the user has a verified second factor but this session has not used it yet. */
  mfaRequired?: boolean;
}

/** The signed-in user for this request, resolved once by the session middleware. */
export const userContext = createContext<SessionUser | null>(null);

/** This request's supabase-js server client, for actions that sign in or out. */
export const supabaseContext = createContext<RequestSupabase | null>(null);
