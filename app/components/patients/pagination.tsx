import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";

/** Previous/next links that change one page parameter and keep the rest of the query (works without JS). */
export function Pagination({ param, page, hasMore }: { param: string; page: number; hasMore: boolean }) {
  const { t } = useTranslation("patients");
  const location = useLocation();
  if (page <= 1 && !hasMore) return null;
  const href = (target: number) => {
    const params = new URLSearchParams(location.search);
    if (target <= 1) params.delete(param);
    else params.set(param, String(target));
    params.delete("created");
    const query = params.toString();
    return `${location.pathname}${query ? `?${query}` : ""}`;
  };
  return (
    <nav className="pagination" aria-label={t("pagination.label")} data-testid={`pagination-${param}`}>
      {page > 1 ? (
        <Link to={href(page - 1)} rel="prev" preventScrollReset>
          {t("pagination.previous")}
        </Link>
      ) : null}
      <span aria-current="page">{t("pagination.page", { page })}</span>
      {hasMore ? (
        <Link to={href(page + 1)} rel="next" preventScrollReset>
          {t("pagination.next")}
        </Link>
      ) : null}
    </nav>
  );
}
