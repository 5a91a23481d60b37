import i18next from "i18next";
import type { Locale } from "#app/i18n/config.ts";
import { resources } from "#app/i18n/resources.server.ts";
import { type PdfLine, renderLinesPdf } from "#app/services/notes/pdf/pdf-lines.server.ts";
import { asActor, type OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import { stageName } from "./classification.ts";
import { getPerioExam } from "./exams.server.ts";
import { FACIAL_SITES, LINGUAL_SITES, type Numbering, toothLabel } from "./teeth.ts";

// GET /api/perio-exams/:id/pdf (issue 14 "Print and PDF"): the clinic copy (every tooth's values,
// summary, classification with its rationale) or the patient copy (plain language), in the
// language asked for, in the note PDF's fonts (ADR 15).

export async function perioPdf(
  args: OrgServiceArgs & { orgId: string; examId: string; copy: "clinic" | "patient"; lang: Locale; numbering: Numbering },
): Promise<{ filename: string; bytes: Uint8Array<ArrayBuffer> }> {
  const exam = await getPerioExam({ ...args, readAs: "perio_exam.pdf" });
  const patient = await asActor(args, args.orgId, (trx) =>
    trx
      .selectFrom("patients")
      .select("display_name")
      .where("org_id", "=", args.orgId)
      .where("id", "=", exam.patient_id)
      .executeTakeFirstOrThrow(),
  );
  const i18n = i18next.createInstance();
  await i18n.init({
    lng: args.lang,
    resources: { [args.lang]: resources[args.lang] },
    ns: ["perio"],
    defaultNS: "perio",
    interpolation: { escapeValue: false },
  });
  const t = (key: string, values?: Record<string, unknown>) => i18n.t(key, values);
  const s = exam.summary;
  const lines: PdfLine[] = [];
  if (args.copy === "patient") {
    lines.push({ text: t("print.patient_title", { name: patient.display_name, date: exam.exam_date }), bold: true, size: 15 });
    lines.push({ text: `• ${t("print.patient_teeth", { teeth: s.teethPresent })}`, gap: 10 });
    if (s.bopPercent !== null) lines.push({ text: `• ${t("print.patient_bleeding", { percent: s.bopPercent })}` });
    lines.push({ text: `• ${t("print.patient_pockets", { count: s.pd4 })}` });
    if (s.plaquePercent !== null) lines.push({ text: `• ${t("print.patient_plaque", { percent: s.plaquePercent })}` });
    lines.push({ text: t("print.patient_advice"), gap: 12 });
  } else {
    lines.push({ text: `${patient.display_name} — ${t("chart.title", { date: exam.exam_date })}`, bold: true, size: 15 });
    lines.push({ text: t("chart.gm_convention"), size: 9, gap: 4 });
    lines.push({ text: t("summary.title"), bold: true, size: 12, gap: 10 });
    const summary = [
      `${t("summary.teeth_present")}: ${s.teethPresent}`,
      `${t("summary.sites_measured")}: ${s.sitesMeasured}`,
      `${t("summary.bop")}: ${s.bopSites}${s.bopPercent === null ? "" : ` (${s.bopPercent}%)`}`,
      `${t("summary.pd4")}: ${s.pd4}; ${t("summary.pd5")}: ${s.pd5}; ${t("summary.pd6")}: ${s.pd6}`,
      `${t("summary.mean_pd")}: ${s.meanPd ?? "–"}; ${t("summary.mean_cal")}: ${s.meanCal ?? "–"}`,
    ];
    for (const text of summary) lines.push({ text });
    const c = exam.classification;
    lines.push({ text: t("classification.title"), bold: true, size: 12, gap: 10 });
    const p = c.proposed;
    lines.push({
      text:
        p.periodontitis === null
          ? t("classification.no_data")
          : p.periodontitis === false
            ? t("classification.no_periodontitis")
            : t("classification.proposal", { stage: stageName(p.stage ?? 1), extent: t(`extent.${p.extent}`), grade: p.grade }),
    });
    for (const r of p.rationale) lines.push({ text: `• ${t(`rationale.${r.code}`, r.values ?? {})}`, size: 9.5, indent: 10 });
    if (c.confirmed) {
      const conf = c.confirmed;
      lines.push({
        text: `${t(conf.overridden ? "classification.overridden" : "classification.confirmed")}: ${conf.stage ? stageName(conf.stage) : "–"}, ${conf.extent ? t(`extent.${conf.extent}`) : "–"}, ${conf.grade ?? "–"}`,
        bold: true,
      });
    }
    lines.push({
      text: `${t("grid.tooth")} — ${t("grid.facial")} / ${t("grid.lingual")} (${t("rows.pd")} | ${t("rows.gm")})`,
      bold: true,
      size: 12,
      gap: 10,
    });
    const v = (n: number | null) => (n === null ? "-" : String(n));
    for (const tooth of exam.teeth) {
      const label = toothLabel(tooth.tooth, args.numbering);
      if (tooth.missing) {
        lines.push({ text: `${label}: ${t("print.missing")}`, size: 9 });
        continue;
      }
      const side = (sites: readonly (keyof typeof tooth.sites)[]) =>
        `${sites.map((x) => v(tooth.sites[x].pd)).join(" ")} | ${sites.map((x) => v(tooth.sites[x].gm)).join(" ")}`;
      const bop = [...FACIAL_SITES, ...LINGUAL_SITES].filter((x) => tooth.sites[x].bop).map((x) => t(`sites.${x}`));
      const extra = [
        tooth.implant ? t("print.implant") : "",
        tooth.mobility ? `${t("print.mobility")} ${tooth.mobility}` : "",
        ...Object.entries(tooth.furcation).map(
          ([site, g]) => `${t("print.furcation")} ${t(`sites.${site}`)} ${"I".repeat(g ?? 0)}`,
        ),
        bop.length ? `${t("flags.bop")}: ${bop.join(", ")}` : "",
      ].filter(Boolean);
      lines.push({
        text: `${label}: ${side(FACIAL_SITES)}  /  ${side(LINGUAL_SITES)}${extra.length ? `  — ${extra.join("; ")}` : ""}`,
        size: 9,
      });
    }
  }
  return {
    filename: `perio-${exam.exam_date}-${args.copy}.pdf`,
    bytes: await renderLinesPdf(lines, { title: `${patient.display_name} ${exam.exam_date}`, language: args.lang }),
  };
}
