import { data } from "react-router";
import { SecuritySettings } from "#app/components/settings/security-settings.tsx";
import { changePassword } from "#app/services/session/account.server.ts";
import { requireUser } from "#app/services/session/guards.server.ts";
import {
  confirmTotpEnrolment,
  listFactors,
  removeFactor,
  sendReauthenticationCode,
  signOutOtherSessions,
  startTotpEnrolment,
} from "#app/services/session/security.server.ts";
import { supabaseContext } from "#app/services/session/user-context.ts";
import { readForm } from "#app/utils/read-form.server.ts";
import type { Route } from "./+types/security";
import { SecurityActionSchema } from "./security-schemas.ts";

function requireSupabase(context: Route.LoaderArgs["context"]) {
  const supabase = context.get(supabaseContext)?.supabase;
  if (!supabase) throw new Error("session middleware missing");
  return supabase;
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  return { email: user.email, factors: await listFactors(requireSupabase(context)) };
}

export async function action({ context, request }: Route.ActionArgs) {
  requireUser(context, request);
  const parsed = SecurityActionSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) return data({ intent: "invalid", failure: { code: "invalid_input" } }, { status: 400 });
  const supabase = requireSupabase(context);
  const input = parsed.data;
  switch (input.intent) {
    case "enroll-totp": {
      const result = await startTotpEnrolment(supabase, input.friendlyName);
      return "code" in result
        ? data({ intent: input.intent, failure: result }, { status: 400 })
        : { intent: input.intent, enrolment: result };
    }
    case "verify-totp":
      return outcome(input.intent, await confirmTotpEnrolment(supabase, input.factorId, input.code));
    case "remove-factor":
      return outcome(input.intent, await removeFactor(supabase, input.factorId));
    case "sign-out-others":
      return outcome(input.intent, await signOutOtherSessions(supabase));
    case "send-reauth-code":
      return outcome(input.intent, await sendReauthenticationCode(supabase));
    case "change-password":
      return outcome(input.intent, await changePassword(supabase, input.password, input.nonce || undefined));
  }
}

function outcome(intent: string, failure: { code: string; reasons?: string[] } | null) {
  return failure ? data({ intent, failure }, { status: 400 }) : { intent, done: true };
}

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  return <SecuritySettings factors={loaderData.factors} result={actionData} />;
}
