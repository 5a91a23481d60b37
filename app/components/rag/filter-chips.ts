import type { AskFilters, AskRecordType } from "#app/services/rag/model.ts";

// SPEC §2 "Chat panel": the active filters as removable chips — Transcriptions, Doctor notes, and
// the date range as 'from → to', or 'from → today' when it is open-ended.

export type FilterChip =
  | { key: `type:${AskRecordType}`; kind: "type"; type: AskRecordType }
  | { key: "dates"; kind: "dates"; label: string };

export function filterChips(filters: AskFilters, format: { day: (day: string) => string; today: string }): FilterChip[] {
  const chips: FilterChip[] = (filters.record_types ?? []).map((type) => ({ key: `type:${type}` as const, kind: "type", type }));
  if (filters.date_from || filters.date_to) {
    const from = filters.date_from ? `${format.day(filters.date_from)} ` : "";
    const to = filters.date_to ? format.day(filters.date_to) : format.today;
    chips.push({ key: "dates", kind: "dates", label: `${from}→ ${to}` });
  }
  return chips;
}

/** The filters without the chip the user removed. */
export function removeFilter(filters: AskFilters, chip: FilterChip): AskFilters {
  if (chip.kind === "dates") return { ...filters, date_from: undefined, date_to: undefined };
  const record_types = (filters.record_types ?? []).filter((type) => type !== chip.type);
  return { ...filters, record_types: record_types.length ? record_types : undefined };
}

/** Filters as the API takes them: empty parts dropped. */
export function compactFilters(filters: AskFilters): AskFilters | undefined {
  const out: AskFilters = {};
  if (filters.record_types?.length) out.record_types = filters.record_types;
  if (filters.date_from) out.date_from = filters.date_from;
  if (filters.date_to) out.date_to = filters.date_to;
  return Object.keys(out).length ? out : undefined;
}
