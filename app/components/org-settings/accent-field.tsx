import { useTranslation } from "react-i18next";
import { DEFAULT_ACCENT } from "#app/utils/accent.ts";

/**
 * The practice's accent colour (issue 11): a native colour input, so it posts #rrggbb without
 * JavaScript; choosing Murmur's colour again stores "none". The server refuses a colour white text
 * cannot be read on, and says so.
 */
export function AccentField({ value }: { value: string | null }) {
  const { t } = useTranslation("ui");
  return (
    <div className="accent-field">
      <label>
        {t("accent.label")}
        <input
          type="color"
          name="accent_color"
          defaultValue={value ?? DEFAULT_ACCENT}
          aria-describedby="accent-help"
          data-testid="accent-color"
        />
      </label>
      <small id="accent-help" className="ui-field-help">
        {t("accent.help", { color: DEFAULT_ACCENT })}
      </small>
    </div>
  );
}
