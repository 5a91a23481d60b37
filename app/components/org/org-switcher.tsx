import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { StatusBadge } from "#app/components/ui/badge.tsx";
import { DisclosureMenu } from "#app/components/ui/disclosure-menu.tsx";
import { Icon } from "#app/components/ui/icons.tsx";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import type { MemberOrg } from "#app/services/org-context/current-org.ts";

/**
 * The top bar's organisation menu (issue 4, issue 11): the current organisation with its plan,
 * every organisation with the user's role in it, and "Create organisation". Each entry is a plain
 * form post to /_org, so a switch works without JavaScript and reloads the whole page in the new
 * organisation; the target keeps the section but drops query ids of the old tenant.
 */
export function OrgSwitcher({ org, orgs }: { org: MemberOrg; orgs: MemberOrg[] }) {
  const { t } = useTranslation("org");
  const { t: tPlan } = useTranslation("orgSettings");
  const to = useLocalizedPath();
  const { pathname } = useLocation();
  return (
    <DisclosureMenu
      className="org-switcher"
      testId="org-switcher"
      align="start"
      summary={
        <>
          <Icon name="building" className="shrink-0 text-muted" />
          <span className="sr-only">{t("switcher.label")}: </span>
          <span className="ui-truncate org-switcher-name" title={org.name} data-testid="current-org">
            {org.name}
          </span>
          <StatusBadge tone={org.plan === "trial" ? "warning" : "info"} testId="current-org-plan">
            {tPlan(`plans.${org.plan}`)}
          </StatusBadge>
          <Icon name="chevronDown" size={16} className="shrink-0 text-muted" />
        </>
      }
    >
      <p className="ui-menu-heading">{t("switcher.switch")}</p>
      <ul>
        {orgs.map((candidate) => (
          <li key={candidate.id}>
            <form method="post" action="/_org" className="org-switcher-item">
              <input type="hidden" name="intent" value="switch" />
              <input type="hidden" name="org_id" value={candidate.id} />
              <input type="hidden" name="redirectTo" value={pathname} />
              <button
                type="submit"
                className="ui-menu-item"
                disabled={candidate.id === org.id}
                aria-current={candidate.id === org.id ? "true" : undefined}
                data-org-id={candidate.id}
              >
                <span className="ui-menu-item-text">
                  <span className="ui-truncate" title={candidate.name}>
                    {candidate.name}
                  </span>
                  <small>
                    {t(`roles.${candidate.role}`)} · {tPlan(`plans.${candidate.plan}`)}
                    {candidate.id === org.id ? ` · ${t("switcher.active")}` : ""}
                  </small>
                </span>
                {candidate.id === org.id ? <Icon name="check" className="shrink-0" /> : null}
              </button>
            </form>
          </li>
        ))}
        <li className="ui-menu-separator">
          <Link to={to("/organizations/new")} className="ui-menu-item" data-testid="create-org-link">
            <Icon name="plus" className="shrink-0" />
            <span>{t("switcher.create")}</span>
          </Link>
        </li>
      </ul>
    </DisclosureMenu>
  );
}
