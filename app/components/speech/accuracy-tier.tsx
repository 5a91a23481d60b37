import { useTranslation } from "react-i18next";

/** Issue 26: what accuracy to expect from an engine, by kind (embedded, local Whisper, hosted). */
export function accuracyTier(engineId: string): "embedded" | "whisper" | "hosted" {
  if (engineId === "pocketsphinx") return "embedded";
  return engineId === "whisper" ? "whisper" : "hosted";
}

/** Settings → Speech: the engine visits use first, with its expected accuracy tier (a warning when it is the embedded one). */
export function EngineAccuracyTiers({ engines }: { engines: readonly { id: string }[] }) {
  const { t } = useTranslation("asr");
  return (
    <ul className="grid gap-2" data-testid="engine-accuracy-tiers">
      {engines.map((engine) => {
        const tier = accuracyTier(engine.id);
        return (
          <li
            key={engine.id}
            data-tier={tier}
            className={
              tier === "embedded" ? "rounded-sm border border-warning bg-warning-soft px-2 py-1 font-medium text-fg" : undefined
            }
          >
            <strong>{engine.id}</strong>: {t(`offlineEngine.tier.${tier}`)}
          </li>
        );
      })}
    </ul>
  );
}
