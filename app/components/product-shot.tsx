import { useTranslation } from "react-i18next";
import type { Locale } from "#app/i18n/config.ts";
import { useLocale } from "#app/i18n/use-locale.ts";

interface Shot {
  src: string;
  width: number;
  height: number;
}

/**
 * The app screenshots copied from docs/screenshots into public/product (light theme, 1280 px wide).
 * Where docs/screenshots has the page in French or Spanish, the reader sees their own language.
 */
export const PRODUCT_SHOTS: Record<"dashboard" | "transcribing", Partial<Record<Locale, Shot>> & { en: Shot }> = {
  dashboard: {
    en: { src: "/screenshots/dashboard.jpg", width: 1280, height: 946 },
    fr: { src: "/screenshots/dashboard.fr.jpg", width: 1280, height: 969 },
    es: { src: "/screenshots/dashboard.es.jpg", width: 1280, height: 969 },
  },
  transcribing: { en: { src: "/screenshots/transcribing.jpg", width: 1280, height: 860 } },
};

export type ProductShotName = keyof typeof PRODUCT_SHOTS;

/**
 * A real screenshot of the app on a product page. width/height give the box its aspect ratio
 * before the file arrives (no layout shift); CSS scales it down to the column, down to 360 px.
 */
export function ProductShot({ name }: { name: ProductShotName }) {
  const { t } = useTranslation("ui");
  const locale = useLocale();
  const shot = PRODUCT_SHOTS[name][locale] ?? PRODUCT_SHOTS[name].en;
  return (
    <figure className="product-shot">
      <img
        src={shot.src}
        width={shot.width}
        height={shot.height}
        alt={t(`productShots.${name}.alt`)}
        loading="lazy"
        decoding="async"
      />
      <figcaption>{t(`productShots.${name}.caption`)}</figcaption>
    </figure>
  );
}
