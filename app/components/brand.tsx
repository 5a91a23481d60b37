import { Link } from "react-router";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";

export function Brand({ to = "/" }: { to?: string }) {
  const localize = useLocalizedPath();
  return (
    <Link to={localize(to)} className="brand" aria-label="Murmur AI Scribe">
      <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill="currentColor" />
        <path d="M8 20v-8m4 12V8m4 14V10m4 12V8m4 12v-8" stroke="#fff" strokeWidth="2.4" strokeLinecap="round" />
      </svg>
      <span>Murmur</span>
    </Link>
  );
}
