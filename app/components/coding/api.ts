// The coding panel's calls to the JSON API (docs/api.md "Coding"), with the session cookie and the
// page's organisation; an error answer becomes its stable code for the translated message.

export type ApiResult<T> = { ok: true; body: T } | { ok: false; code: string };

export async function codingApi<T>(
  orgId: string,
  path: string,
  init: { method?: string; json?: unknown } = {},
): Promise<ApiResult<T>> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: init.method ?? "GET",
      credentials: "same-origin",
      headers: { "x-org-id": orgId, ...(init.json !== undefined ? { "content-type": "application/json" } : {}) },
      body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
    });
  } catch {
    return { ok: false, code: "network" };
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { code?: string };
    return { ok: false, code: body.code ?? "other" };
  }
  const type = res.headers.get("content-type") ?? "";
  return { ok: true, body: (type.includes("json") && !type.includes("fhir") ? await res.json() : await res.text()) as T };
}
