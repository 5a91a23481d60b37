import type { ReactNode } from "react";
import { Link } from "react-router";

export interface Column<Row> {
  key: string;
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** Sortable columns get a link that sorts by this key (the loader does the sorting). */
  sortable?: boolean;
  align?: "start" | "end";
}

export interface SortState {
  key: string;
  dir: "asc" | "desc";
}

/**
 * A data table with sorting and pagination through links, so both work without JavaScript and
 * survive a reload (issue 11). Headers carry aria-sort; below 640 px it scrolls inside its own box.
 */
export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  sort,
  sortHref,
  pagination,
  empty,
  labels,
}: {
  caption: string;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  sort?: SortState;
  sortHref?: (next: SortState) => string;
  pagination?: { page: number; pageCount: number; href: (page: number) => string };
  empty?: ReactNode;
  labels: { previous: string; next: string; page: (page: number, count: number) => string };
}) {
  if (rows.length === 0 && empty) return <>{empty}</>;
  return (
    <div className="ui-table-wrap">
      <table className="ui-table">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => {
              const active = sort?.key === column.key;
              const ariaSort = active ? (sort?.dir === "asc" ? "ascending" : "descending") : undefined;
              return (
                <th key={column.key} scope="col" aria-sort={ariaSort} data-align={column.align}>
                  {column.sortable && sortHref ? (
                    <Link
                      to={sortHref({ key: column.key, dir: active && sort?.dir === "asc" ? "desc" : "asc" })}
                      className="ui-table-sort"
                      preventScrollReset
                    >
                      {column.header}
                      <span aria-hidden="true">{active ? (sort?.dir === "asc" ? "▲" : "▼") : "↕"}</span>
                    </Link>
                  ) : (
                    column.header
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => (
                <td key={column.key} data-align={column.align}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {pagination && pagination.pageCount > 1 ? (
        <nav className="ui-pagination" aria-label={caption}>
          {pagination.page > 1 ? (
            <Link to={pagination.href(pagination.page - 1)} rel="prev">
              {labels.previous}
            </Link>
          ) : (
            <span aria-disabled="true">{labels.previous}</span>
          )}
          <span>{labels.page(pagination.page, pagination.pageCount)}</span>
          {pagination.page < pagination.pageCount ? (
            <Link to={pagination.href(pagination.page + 1)} rel="next">
              {labels.next}
            </Link>
          ) : (
            <span aria-disabled="true">{labels.next}</span>
          )}
        </nav>
      ) : null}
    </div>
  );
}
