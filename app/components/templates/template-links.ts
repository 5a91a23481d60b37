import type { NoteLanguage } from "#app/services/notes/model.ts";

/** The page showing one template (built-ins in `language`). */
export function pagePath(to: (path: string) => string, id: string, language: NoteLanguage): string {
  return `${to("/custom-templates")}?${new URLSearchParams({ id, language })}`;
}

/**
 * GET /api/templates/:id/export: the session cookie and the `murmur-org` cookie (set by every
 * app page) authenticate it, so a plain download link works without JavaScript.
 */
export function exportHref(id: string, language: NoteLanguage): string {
  return `/api/templates/${encodeURIComponent(id)}/export?language=${language}`;
}
