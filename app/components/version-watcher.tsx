import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useNavigation } from "react-router";
import { showToast } from "#app/components/toasts.tsx";
import { BUILD_ID } from "#app/runtime/build-info.ts";
import { NAVIGATION_FAILED_EVENT, VERSION_POLL_INTERVAL_MS } from "#app/utils/constants.ts";

async function fetchLatestBuildId(): Promise<string | null> {
  try {
    const res = await fetch("/builds/latest.json", { cache: "no-store" });
    if (!res.ok) return null;
    const body = (await res.json()) as { id?: unknown };
    return typeof body.id === "string" ? body.id : null;
  } catch {
    return null;
  }
}

/**
 * SPEC §4 Version updates: polls the latest build (every 5 minutes and when the tab becomes
 * visible) and offers a reload when it differs; a chunk that fails to load during navigation
 * reloads the target page when a new build is out, and otherwise reveals the fallback banner.
 */
export function VersionWatcher() {
  const { t } = useTranslation("common");
  const navigation = useNavigation();
  const pendingPath = useRef<string | null>(null);
  pendingPath.current = navigation.location ? navigation.location.pathname + navigation.location.search : null;

  useEffect(() => {
    let offered = false;
    const check = async () => {
      const latest = await fetchLatestBuildId();
      if (!latest || latest === BUILD_ID || offered) return;
      offered = true;
      showToast(t("version.available"), {
        id: "new-version",
        duration: Number.POSITIVE_INFINITY,
        action: { label: t("version.reload"), onClick: () => window.location.reload() },
      });
    };
    const onVisible = () => {
      if (document.visibilityState === "visible") void check();
    };
    const onPreloadError = async (event: Event) => {
      event.preventDefault();
      const latest = await fetchLatestBuildId();
      if (latest && latest !== BUILD_ID) {
        window.location.assign(pendingPath.current ?? window.location.href);
      } else {
        window.dispatchEvent(new Event(NAVIGATION_FAILED_EVENT));
      }
    };
    const timer = window.setInterval(check, VERSION_POLL_INTERVAL_MS);
    document.addEventListener("visibilitychange", onVisible);
    window.addEventListener("vite:preloadError", onPreloadError);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisible);
      window.removeEventListener("vite:preloadError", onPreloadError);
    };
  }, [t]);
  return null;
}
