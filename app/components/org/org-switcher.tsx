import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import type { MemberOrg } from "#app/services/org-context/current-org.ts";

/**
 * The header's organisation menu (issue 4): every organisation with the user's role in it, and
 * "Create organisation". Each entry is a plain form post to /_org, so a switch reloads the whole page
 * in the new organisation; the target keeps the section but drops query ids of the old tenant.
 */
export function OrgSwitcher({ org, orgs }: { org: MemberOrg; orgs: MemberOrg[] }) {
  const { t } = useTranslation("org");
  const to = useLocalizedPath();
  const { pathname, key } = useLocation();
  const menu = useRef<HTMLDetailsElement>(null);
  const shownKey = useRef(key);
  // The header outlives client navigations: close the menu when the page changes under it — but
  // not on hydration, which would shut a menu opened while the page was still loading.
  useEffect(() => {
    if (shownKey.current === key) return;
    shownKey.current = key;
    if (menu.current) menu.current.open = false;
  }, [key]);
  return (
    <details className="dropdown org-switcher" data-testid="org-switcher" ref={menu}>
      <summary aria-label={t("switcher.current", { name: org.name })}>
        <span className="org-switcher-name" data-testid="current-org">
          {org.name}
        </span>
      </summary>
      <ul>
        {orgs.map((candidate) => (
          <li key={candidate.id}>
            <form method="post" action="/_org" className="org-switcher-item">
              <input type="hidden" name="intent" value="switch" />
              <input type="hidden" name="org_id" value={candidate.id} />
              <input type="hidden" name="redirectTo" value={pathname} />
              <button
                type="submit"
                className="outline secondary"
                disabled={candidate.id === org.id}
                aria-current={candidate.id === org.id ? "true" : undefined}
                data-org-id={candidate.id}
              >
                <span>{candidate.name}</span>
                <small>
                  {t(`roles.${candidate.role}`)}
                  {candidate.id === org.id ? ` · ${t("switcher.active")}` : ""}
                </small>
              </button>
            </form>
          </li>
        ))}
        <li>
          <Link to={to("/organizations/new")} data-testid="create-org-link">
            {t("switcher.create")}
          </Link>
        </li>
      </ul>
    </details>
  );
}
