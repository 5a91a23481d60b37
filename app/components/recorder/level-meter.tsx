import { useTranslation } from "react-i18next";
import { levelPercent } from "./format.ts";

/** The microphone's input level, as a native <meter> (role meter) with its value for assistive technology. */
export function LevelMeter({ level }: { level: number }) {
  const { t } = useTranslation("recorder");
  const percent = levelPercent(level);
  return (
    <label className="recorder-level">
      {t("panel.level")}
      <meter
        min={0}
        max={100}
        low={10}
        high={90}
        optimum={50}
        value={percent}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={t("panel.levelValue", { percent })}
        data-testid="recorder-level"
      />
    </label>
  );
}
