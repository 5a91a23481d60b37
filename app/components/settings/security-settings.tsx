import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import type { Enrolment, FactorSummary } from "#app/services/session/security.server.ts";
import { FormFailure } from "../form-failure.tsx";
import { NewPasswordField } from "../password-rules.tsx";
import { Section } from "../ui/page.tsx";

export interface SecurityResult {
  intent: string;
  failure?: { code: string; reasons?: string[] };
  enrolment?: Enrolment;
  done?: boolean;
}

/** Settings → Security: two-factor authentication, other sessions, password (issue 3 §3). */
export function SecuritySettings({ factors, result }: { factors: FactorSummary[]; result?: SecurityResult }) {
  const { t } = useTranslation("app");
  const failureFor = (intent: string) => (result?.intent === intent || result?.intent === "invalid" ? result.failure : undefined);
  const doneFor = (intent: string) => result?.intent === intent && result.done === true;
  const enrolment = result?.intent === "enroll-totp" ? result.enrolment : undefined;
  const verified = factors.filter((f) => f.verified);
  return (
    <div className="security-settings ui-stack">
      <h2 className="sr-only">{t("security.heading")}</h2>

      <Section
        id="security-mfa"
        title={t("security.mfa.heading")}
        description={verified.length ? t("security.mfa.on") : t("security.mfa.off")}
      >
        {verified.length ? (
          <ul className="factor-list">
            {verified.map((f) => (
              <li key={f.id} data-factor-id={f.id}>
                <span>{f.friendlyName || t("security.mfa.unnamed")}</span>{" "}
                <Form method="post" className="inline-form">
                  <input type="hidden" name="intent" value="remove-factor" />
                  <input type="hidden" name="factorId" value={f.id} />
                  <button type="submit" className="ui-button" data-variant="ghost">
                    {t("security.mfa.remove")}
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        ) : null}
        <FormFailure failure={failureFor("remove-factor") ?? failureFor("verify-totp") ?? failureFor("enroll-totp")} />
        {doneFor("verify-totp") ? <p role="status">{t("security.mfa.enabled")}</p> : null}
        {enrolment ? (
          <div className="enrolment">
            <p>{t("security.mfa.scan")}</p>
            <img src={enrolment.qrCode} alt={t("security.mfa.qrAlt")} width={180} height={180} />
            <p>
              {t("security.mfa.secret")} <code data-testid="totp-secret">{enrolment.secret}</code>
            </p>
            <Form method="post" className="ui-form">
              <input type="hidden" name="intent" value="verify-totp" />
              <input type="hidden" name="factorId" value={enrolment.factorId} />
              <label>
                {t("security.mfa.code")}
                <input name="code" inputMode="numeric" autoComplete="one-time-code" pattern="\d{6}" maxLength={6} required />
              </label>
              <button type="submit" className="ui-button">
                {t("security.mfa.confirm")}
              </button>
            </Form>
          </div>
        ) : (
          <Form method="post" className="ui-form">
            <input type="hidden" name="intent" value="enroll-totp" />
            <label>
              {t("security.mfa.name")}
              <input name="friendlyName" required maxLength={80} defaultValue={t("security.mfa.defaultName")} />
            </label>
            <button type="submit" className="ui-button">
              {t("security.mfa.add")}
            </button>
          </Form>
        )}
      </Section>

      <Section id="security-sessions" title={t("security.sessions.heading")} description={t("security.sessions.body")}>
        <FormFailure failure={failureFor("sign-out-others")} />
        {doneFor("sign-out-others") ? <p role="status">{t("security.sessions.done")}</p> : null}
        <Form method="post" className="ui-form">
          <input type="hidden" name="intent" value="sign-out-others" />
          <button type="submit" className="ui-button" data-variant="secondary">
            {t("security.sessions.action")}
          </button>
        </Form>
      </Section>

      <Section id="security-password" title={t("security.password.heading")} description={t("security.password.body")}>
        <FormFailure failure={failureFor("send-reauth-code") ?? failureFor("change-password")} />
        {doneFor("send-reauth-code") ? <p role="status">{t("security.password.codeSent")}</p> : null}
        {doneFor("change-password") ? <p role="status">{t("security.password.changed")}</p> : null}
        <Form method="post" className="ui-form">
          <input type="hidden" name="intent" value="send-reauth-code" />
          <button type="submit" className="ui-button" data-variant="secondary">
            {t("security.password.sendCode")}
          </button>
        </Form>
        <Form method="post" className="ui-form">
          <input type="hidden" name="intent" value="change-password" />
          <label>
            {t("security.password.code")}
            <input name="nonce" inputMode="numeric" autoComplete="one-time-code" maxLength={20} />
          </label>
          <NewPasswordField label={t("security.password.new")} />
          <button type="submit" className="ui-button">
            {t("security.password.save")}
          </button>
        </Form>
      </Section>
    </div>
  );
}
