import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ORG_REGIONS, supportedTimeZones } from "#app/routes/app/settings/organization-schemas.ts";

const EU = new Set("AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE".split(" "));

/** The organisation region (ORG_REGIONS) of a country code, e.g. "FR" → "eu", "GB" → "uk". */
export function regionOfCountry(country: string | undefined): (typeof ORG_REGIONS)[number] {
  const c = (country ?? "").toUpperCase();
  if (c === "US" || c === "CA" || c === "AU") return c.toLowerCase() as "us" | "ca" | "au";
  if (c === "GB" || c === "UK") return "uk";
  return EU.has(c) ? "eu" : "other";
}

/**
 * Issue 29: a new organisation takes its time zone and region from the browser (Intl), both
 * editable. Without JavaScript the server's suggestion stands (region from Accept-Language, UTC).
 */
export function BrowserLocaleFields({ suggestedRegion }: { suggestedRegion: string }) {
  const { t } = useTranslation("orgSettings");
  const [timezone, setTimezone] = useState("UTC");
  const [region, setRegion] = useState(suggestedRegion);
  useEffect(() => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone && supportedTimeZones().includes(zone)) setTimezone(zone);
    try {
      setRegion(regionOfCountry(new Intl.Locale(navigator.language).maximize().region));
    } catch {
      // An unparsable browser language keeps the server's suggestion.
    }
  }, []);
  return (
    <>
      <label>
        {t("organization.timezone")}
        <select name="timezone" value={timezone} onChange={(e) => setTimezone(e.target.value)} data-testid="org-new-timezone">
          {supportedTimeZones().map((zone) => (
            <option key={zone} value={zone}>
              {zone}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t("organization.region")}
        <select name="region" value={region} onChange={(e) => setRegion(e.target.value)} data-testid="org-new-region">
          {ORG_REGIONS.map((r) => (
            <option key={r} value={r}>
              {t(`regions.${r}`)}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}
