import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import { PageMeta } from "./page-meta.tsx";
import { ProductShot, type ProductShotName } from "./product-shot.tsx";

interface Section {
  heading: string;
  paragraphs?: string[];
  items?: string[];
}

/**
 * A public page whose words all live in locales/<lng>/marketing.json under `page`:
 * title, description, lead, and sections of paragraphs and bullet items; optionally a screenshot.
 */
export function MarketingArticle({
  page,
  cta = true,
  shot,
}: {
  page: string;
  cta?: boolean;
  /** A screenshot of the app shown after the lead (product pages). */
  shot?: ProductShotName;
}) {
  const { t } = useTranslation("marketing");
  const to = useLocalizedPath();
  const sections = t(`${page}.sections`, { returnObjects: true, defaultValue: [] }) as unknown as Section[];
  return (
    <article className="marketing-article" data-page={page}>
      <PageMeta title={t(`${page}.title`)} description={t(`${page}.description`)} />
      <header>
        <h1>{t(`${page}.title`)}</h1>
        <p className="lead">{t(`${page}.lead`)}</p>
      </header>
      {shot ? <ProductShot name={shot} /> : null}
      {Array.isArray(sections)
        ? sections.map((section) => (
            <section key={section.heading}>
              <h2>{section.heading}</h2>
              {section.paragraphs?.map((p) => (
                <p key={p}>{p}</p>
              ))}
              {section.items?.length ? (
                <ul>
                  {section.items.map((item) => (
                    <li key={item}>{item}</li>
                  ))}
                </ul>
              ) : null}
            </section>
          ))
        : null}
      {cta ? (
        <p className="marketing-cta">
          <Link to={to("/signup")} role="button" className="ui-button">
            {t("cta.startTrial")}
          </Link>{" "}
          <Link to={to("/pricing")} role="button" className="ui-button" data-variant="secondary">
            {t("cta.seePricing")}
          </Link>
        </p>
      ) : null}
    </article>
  );
}
