import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AnswerText } from "#app/components/rag/answer-text.tsx";
import { SEARCH_UNAVAILABLE } from "#app/components/rag/ask-client.ts";
import { assistantEntry, lastAnswer } from "#app/components/rag/chat-state.ts";
import { groupCitations } from "#app/components/rag/citation-groups.ts";
import { openSourceHref } from "#app/components/rag/citation-list.tsx";
import { compactFilters, filterChips, removeFilter } from "#app/components/rag/filter-chips.ts";
import { pickSuggestions } from "#app/components/rag/suggestions.ts";
import {
  clampButton,
  clampDrawerWidth,
  defaultButtonPosition,
  isClick,
  isCompact,
  parseStoredPosition,
  parseStoredWidth,
} from "#app/components/rag/widget-geometry.ts";
import { seekSecondsFrom } from "#app/components/visits/seek-param.ts";
import type { AskResponse, Citation } from "#app/services/rag/model.ts";

// Issue 12 "The interface": the widget's pure rules with SPEC §2/§5/§9 constants — the drag
// threshold, the 8 px clamp, the drawer's 360 px–92% width, the 640 px bottom sheet, the chips'
// '+N more' grouping, the filter chips, the suggestions, the chat's help rules and the answer's
// markdown (escaped first, then bold, italic and lists).

const viewport = { width: 1280, height: 800 };

describe("floating button", () => {
  it("is a click only under 5 px of movement", () => {
    expect(isClick({ x: 100, y: 100 }, { x: 100, y: 100 })).toBe(true);
    expect(isClick({ x: 100, y: 100 }, { x: 103, y: 103 })).toBe(true); // 4.24 px
    expect(isClick({ x: 100, y: 100 }, { x: 104, y: 103 })).toBe(false); // exactly 5 px
    expect(isClick({ x: 100, y: 100 }, { x: 100, y: 94 })).toBe(false);
  });

  it("stays at least 8 px inside the window, and starts at the bottom right", () => {
    expect(clampButton({ x: -50, y: -3 }, viewport)).toEqual({ x: 8, y: 8 });
    expect(clampButton({ x: 5000, y: 5000 }, viewport)).toEqual({ x: 1280 - 48 - 8, y: 800 - 48 - 8 });
    expect(clampButton({ x: 300.4, y: 200.6 }, viewport)).toEqual({ x: 300, y: 201 });
    const start = defaultButtonPosition(viewport);
    expect(start.x).toBeGreaterThan(1280 / 2);
    expect(start.y).toBeGreaterThan(800 / 2);
    expect(clampButton(start, viewport)).toEqual(start);
    // At 360 px the same rule holds.
    expect(clampButton({ x: 400, y: 10 }, { width: 360, height: 640 })).toEqual({ x: 360 - 56, y: 10 });
  });

  it("reads a remembered position only when it is two finite numbers", () => {
    expect(parseStoredPosition('{"x":12,"y":40}')).toEqual({ x: 12, y: 40 });
    expect(parseStoredPosition(null)).toBeNull();
    expect(parseStoredPosition("not json")).toBeNull();
    expect(parseStoredPosition('{"x":"12","y":40}')).toBeNull();
    expect(parseStoredPosition("[1,2]")).toBeNull();
  });
});

describe("drawer", () => {
  it("is 600 px by default and clamped to 360 px–92% of the window", () => {
    expect(parseStoredWidth(null)).toBe(600);
    expect(parseStoredWidth("abc")).toBe(600);
    expect(parseStoredWidth("720")).toBe(720);
    expect(clampDrawerWidth(600, 1280)).toBe(600);
    expect(clampDrawerWidth(100, 1280)).toBe(360);
    expect(clampDrawerWidth(5000, 1280)).toBe(Math.floor(1280 * 0.92));
    expect(clampDrawerWidth(5000, 700)).toBe(644);
  });

  it("becomes a bottom sheet below 640 px", () => {
    expect(isCompact(639)).toBe(true);
    expect(isCompact(360)).toBe(true);
    expect(isCompact(640)).toBe(false);
  });
});

function citation(i: number, visit: string, day: string, table: Citation["source"]["table"] = "transcriptions"): Citation {
  return {
    id: `c${i}`,
    title: visit,
    snippet: `snippet ${i}`,
    created_at: day,
    source: { table, id: `v${i}`, field: "text", visit_name: visit, visit_id: `v${i}`, patient_id: "p" },
  };
}

describe("citation chips", () => {
  it("shows six, then '+N more' grouped by 'visit name · date' in relevance order", () => {
    const list = [
      ...Array.from({ length: 6 }, (_, i) => citation(i, `Visit ${i}`, "2026-01-0" + (i + 1))),
      citation(6, "Knee", "2026-03-02"),
      citation(7, "Knee", "2026-03-02", "doctor_notes"),
      citation(8, "Flu", "2026-02-01"),
      citation(9, "Knee", "2026-04-09"),
    ];
    const groups = groupCitations(list, (day) => `<${day}>`);
    expect(groups.shown.map((c) => c.n)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(groups.moreCount).toBe(4);
    expect(groups.more.map((g) => [g.label, g.items.map((item) => item.n)])).toEqual([
      ["Knee · <2026-03-02>", [7, 8]],
      ["Flu · <2026-02-01>", [9]],
      ["Knee · <2026-04-09>", [10]],
    ]);
    expect(groupCitations(list.slice(0, 6), String).moreCount).toBe(0);
  });

  it("opens transcripts at their second and notes in coding, with the timestamp", () => {
    const to = (p: string) => `/fr${p}`;
    expect(openSourceHref("transcriptions", "v1", to, 42, 73.6)).toBe("/fr/transcribing?visit_id=v1&r=42&start=73");
    expect(openSourceHref("transcriptions", "v1", to, 42, 0)).toBe("/fr/transcribing?visit_id=v1&r=42");
    expect(openSourceHref("doctor_notes", "n1", to, 42, 10)).toBe("/fr/coding?id=n1&r=42");
    expect(openSourceHref("help", "h1", to, 42)).toBe("/fr/records-qa");
    expect(seekSecondsFrom(new URLSearchParams("visit_id=v&start=73"))).toBe(73);
    for (const bad of ["start=-1", "start=1e3", "start=abc", "start=99999999", "visit_id=v"])
      expect(seekSecondsFrom(new URLSearchParams(bad))).toBeNull();
  });
});

describe("filter chips", () => {
  const format = { day: (d: string) => `[${d}]`, today: "today" };
  it("names record types and the date range as 'from → to' or 'from → today', each removable", () => {
    const filters = { record_types: ["transcription", "doctor_note"] as const, date_from: "2026-01-01" };
    const chips = filterChips({ ...filters, record_types: [...filters.record_types] }, format);
    expect(chips.map((c) => (c.kind === "dates" ? c.label : c.type))).toEqual([
      "transcription",
      "doctor_note",
      "[2026-01-01] → today",
    ]);
    expect(filterChips({ date_from: "2026-01-01", date_to: "2026-02-01" }, format)[0]).toMatchObject({
      label: "[2026-01-01] → [2026-02-01]",
    });
    expect(filterChips({ date_to: "2026-02-01" }, format)[0]).toMatchObject({ label: "→ [2026-02-01]" });
    const noDates = removeFilter({ date_from: "2026-01-01", record_types: ["case"] }, chips[2] as (typeof chips)[number]);
    expect(compactFilters(noDates)).toEqual({ record_types: ["case"] });
    const first = chips[0] as (typeof chips)[number];
    expect(compactFilters(removeFilter({ record_types: ["transcription"] }, first))).toBeUndefined();
  });
});

describe("suggestions", () => {
  it("are four: two visit questions then two help questions, distinct, chosen by the random source", () => {
    const visit = ["v1", "v2", "v3", "v4"];
    const help = ["h1", "h2", "h3", "h4"];
    const picked = pickSuggestions(visit, help, () => 0);
    expect(picked).toEqual([
      { text: "v1", kind: "visit" },
      { text: "v2", kind: "visit" },
      { text: "h1", kind: "help" },
      { text: "h2", kind: "help" },
    ]);
    expect(pickSuggestions(visit, help, () => 0.99).map((s) => s.text)).toEqual(["v4", "v3", "h4", "h3"]);
  });
});

describe("chat answers", () => {
  const base: AskResponse = { answer: "", citations: [], usedFallback: false, support: null, scope: "records" };
  const ctx = { id: "m2", createdAt: "2026-01-01T10:00:00Z", helpTry: "Essayez : autre chose." };
  it("shows the help disclaimer on the first help answer of a chat only", () => {
    const first = assistantEntry({ ...base, scope: "help", answer: "Record [1]" }, { ...ctx, disclaimerShown: false });
    expect(first.entry.disclaimer).toBe(true);
    expect(first.disclaimerShown).toBe(true);
    const second = assistantEntry({ ...base, scope: "help", answer: "Sign [1]" }, { ...ctx, disclaimerShown: true });
    expect(second.entry.disclaimer).toBe(false);
    const records = assistantEntry({ ...base, answer: "500 mg [1]" }, { ...ctx, disclaimerShown: false });
    expect(records.entry.disclaimer).toBe(false);
    expect(records.disclaimerShown).toBe(false);
  });

  it("swaps the 'Try:' line for the support block, and flags SPEC's search fallback", () => {
    const unknown = assistantEntry(
      {
        ...base,
        scope: "help",
        answer: "Je n'ai pas assez d'informations.\nEssayez : autre chose.",
        support: { url: "/support" },
      },
      { ...ctx, disclaimerShown: true },
    );
    expect(unknown.entry.content).toBe("Je n'ai pas assez d'informations.");
    expect(unknown.entry.support).toEqual({ url: "/support" });
    const english = assistantEntry(
      { ...base, answer: "Not enough.\nTry: recording.", support: { url: "/support" } },
      { ...ctx, disclaimerShown: true },
    );
    expect(english.entry.content).toBe("Not enough.");
    const down = assistantEntry({ ...base, answer: SEARCH_UNAVAILABLE, usedFallback: true }, { ...ctx, disclaimerShown: false });
    expect(down.entry.searchUnavailable).toBe(true);
    expect(lastAnswer([{ id: "a", role: "assistant", content: "one", createdAt: "" }, down.entry])).toBe(SEARCH_UNAVAILABLE);
    expect(lastAnswer([{ id: "u", role: "user", content: "q", createdAt: "" }])).toBeNull();
  });
});

describe("answer text (SPEC §5)", () => {
  const render = (text: string) =>
    renderToStaticMarkup(createElement(AnswerText, { text, citationHref: (n: number) => `#c-${n}` }));
  it("escapes HTML, then renders bold, italic, bullet lists and citation markers", () => {
    expect(render('<img src=x onerror="alert(1)"> **bold** and *soft* [2]')).toBe(
      '<div class="rag-answer"><p>&lt;img src=x onerror=&quot;alert(1)&quot;&gt; <strong>bold</strong> and <em>soft</em> <sup><a href="#c-2" class="rag-marker">[2]</a></sup></p></div>',
    );
    expect(render("Plan:\n- rest\n• ice **24 h**\nThen review")).toBe(
      '<div class="rag-answer"><p>Plan:</p><ul><li>rest</li><li>ice <strong>24 h</strong></li></ul><p>Then review</p></div>',
    );
    expect(render("5 * 3 = 15")).toContain("5 * 3 = 15");
  });
});
