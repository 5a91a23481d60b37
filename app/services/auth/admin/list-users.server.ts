import { sql } from "kysely";
import type { AuthCall } from "../api/http.server.ts";
import { json } from "../api/http.server.ts";
import { adminErrors } from "../errors.server.ts";
import { type UserRow, userJson } from "../users.server.ts";

const DEFAULT_PER_PAGE = 50;
const MAX_PER_PAGE = 1000;

/**
 * GET /admin/users?page=&per_page=&filter=: newest first, with GoTrue's `X-Total-Count` and
 * `Link` headers, which supabase-js's listUsers reads for nextPage / lastPage / total.
 */
export async function listUsers(call: AuthCall): Promise<Response> {
  const page = positiveInt(call.url.searchParams.get("page"), 1, Number.MAX_SAFE_INTEGER);
  const perPage = positiveInt(call.url.searchParams.get("per_page"), DEFAULT_PER_PAGE, MAX_PER_PAGE);
  const descending = sortDescending(call.url.searchParams.get("sort"));
  const filter = call.url.searchParams.get("filter")?.trim() ?? "";
  const like = `%${filter.replace(/[\\%_]/g, "\\$&")}%`;
  const where = filter ? sql`where email ilike ${like} or raw_user_meta_data ->> 'full_name' ilike ${like}` : sql``;
  const db = call.auth.db.kysely;
  const total = Number((await sql<{ n: string }>`select count(*) as n from auth.users ${where}`.execute(db)).rows[0]?.n ?? 0);
  const offset = (page - 1) * perPage;
  const rows =
    offset >= total
      ? []
      : (
          await sql<UserRow>`select * from auth.users ${where}
                             order by created_at ${descending ? sql`desc` : sql`asc`}, id
                             limit ${perPage} offset ${offset}`.execute(db)
        ).rows;
  const users = [];
  for (const row of rows) users.push(await userJson(db, row));
  return json({ users, aud: "authenticated" }, 200, {
    "X-Total-Count": String(total),
    Link: paginationLinks(call.url, page, perPage, total),
  });
}

function positiveInt(raw: string | null, fallback: number, max: number): number {
  if (raw === null || raw === "") return fallback;
  if (!/^\d{1,16}$/.test(raw)) throw adminErrors.badPagination(`"${raw.slice(0, 32)}" is not a positive integer`);
  const value = Number(raw);
  if (value === 0) return fallback;
  if (value > max) throw adminErrors.badPagination(`at most ${max}`);
  return value;
}

function sortDescending(raw: string | null): boolean {
  if (!raw) return true;
  const match = /^created_at(?:\s+(asc|desc))?$/i.exec(raw.trim());
  if (!match) throw adminErrors.badSort();
  return match[1]?.toLowerCase() !== "asc";
}

/**
 * `<…?page=2&per_page=50>; rel="next", <…?page=4&per_page=50>; rel="last"` as GoTrue writes it.
 * `page` must stay the first query parameter: supabase-js reads the number after the first "=".
 */
function paginationLinks(url: URL, page: number, perPage: number, total: number): string {
  const link = (p: number) => {
    const query = new URLSearchParams({ page: String(p), per_page: String(perPage) });
    for (const [key, value] of url.searchParams) if (key !== "page" && key !== "per_page") query.append(key, value);
    return `<${url.pathname}?${query}>`;
  };
  const parts: string[] = [];
  if (total > page * perPage) parts.push(`${link(page + 1)}; rel="next"`);
  parts.push(`${link(Math.ceil(total / perPage))}; rel="last"`);
  return parts.join(", ");
}
