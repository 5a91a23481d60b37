import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import { NAVIGATION_FAILED_EVENT } from "#app/utils/constants.ts";

const LINKS = [
  ["/dashboard", "nav.dashboard"],
  ["/transcribing", "nav.transcribing"],
  ["/coding", "nav.coding"],
  ["/settings", "nav.settings"],
] as const;

/**
 * SPEC §2: hidden until client-side navigation fails; its links are plain anchors so they
 * work even when the router itself is what broke.
 */
export function NavigationFallbackBanner({ initiallyVisible = false }: { initiallyVisible?: boolean }) {
  const { t } = useTranslation("common");
  const to = useLocalizedPath();
  const [visible, setVisible] = useState(initiallyVisible);
  useEffect(() => {
    const show = () => setVisible(true);
    window.addEventListener(NAVIGATION_FAILED_EVENT, show);
    return () => window.removeEventListener(NAVIGATION_FAILED_EVENT, show);
  }, []);
  return (
    <div className="navigation-fallback" role="alert" hidden={!visible} data-testid="navigation-fallback">
      <strong>{t("navigationFallback.title")}</strong>
      <ul>
        {LINKS.map(([path, key]) => (
          <li key={path}>
            <a href={to(path)}>{t(key)}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}
