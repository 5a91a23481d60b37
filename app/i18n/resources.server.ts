import type { Resource } from "i18next";
import enApp from "../../locales/en/app.json" with { type: "json" };
import enAsr from "../../locales/en/asr.json" with { type: "json" };
import enAuth from "../../locales/en/auth.json" with { type: "json" };
import enBilling from "../../locales/en/billing.json" with { type: "json" };
import enChecks from "../../locales/en/checks.json" with { type: "json" };
import enCoding from "../../locales/en/coding.json" with { type: "json" };
import enCommon from "../../locales/en/common.json" with { type: "json" };
import enDashboard from "../../locales/en/dashboard.json" with { type: "json" };
import enDev from "../../locales/en/dev.json" with { type: "json" };
import enErrors from "../../locales/en/errors.json" with { type: "json" };
import enInvites from "../../locales/en/invites.json" with { type: "json" };
import enMarketing from "../../locales/en/marketing.json" with { type: "json" };
import enNotes from "../../locales/en/notes.json" with { type: "json" };
import enOrg from "../../locales/en/org.json" with { type: "json" };
import enOrgSettings from "../../locales/en/orgSettings.json" with { type: "json" };
import enPatients from "../../locales/en/patients.json" with { type: "json" };
import enPerio from "../../locales/en/perio.json" with { type: "json" };
import enRag from "../../locales/en/rag.json" with { type: "json" };
import enRecorder from "../../locales/en/recorder.json" with { type: "json" };
import enTemplates from "../../locales/en/templates.json" with { type: "json" };
import enUi from "../../locales/en/ui.json" with { type: "json" };
import esApp from "../../locales/es/app.json" with { type: "json" };
import esAsr from "../../locales/es/asr.json" with { type: "json" };
import esAuth from "../../locales/es/auth.json" with { type: "json" };
import esBilling from "../../locales/es/billing.json" with { type: "json" };
import esChecks from "../../locales/es/checks.json" with { type: "json" };
import esCoding from "../../locales/es/coding.json" with { type: "json" };
import esCommon from "../../locales/es/common.json" with { type: "json" };
import esDashboard from "../../locales/es/dashboard.json" with { type: "json" };
import esDev from "../../locales/es/dev.json" with { type: "json" };
import esErrors from "../../locales/es/errors.json" with { type: "json" };
import esInvites from "../../locales/es/invites.json" with { type: "json" };
import esMarketing from "../../locales/es/marketing.json" with { type: "json" };
import esNotes from "../../locales/es/notes.json" with { type: "json" };
import esOrg from "../../locales/es/org.json" with { type: "json" };
import esOrgSettings from "../../locales/es/orgSettings.json" with { type: "json" };
import esPatients from "../../locales/es/patients.json" with { type: "json" };
import esPerio from "../../locales/es/perio.json" with { type: "json" };
import esRag from "../../locales/es/rag.json" with { type: "json" };
import esRecorder from "../../locales/es/recorder.json" with { type: "json" };
import esTemplates from "../../locales/es/templates.json" with { type: "json" };
import esUi from "../../locales/es/ui.json" with { type: "json" };
import frApp from "../../locales/fr/app.json" with { type: "json" };
import frAsr from "../../locales/fr/asr.json" with { type: "json" };
import frAuth from "../../locales/fr/auth.json" with { type: "json" };
import frBilling from "../../locales/fr/billing.json" with { type: "json" };
import frChecks from "../../locales/fr/checks.json" with { type: "json" };
import frCoding from "../../locales/fr/coding.json" with { type: "json" };
import frCommon from "../../locales/fr/common.json" with { type: "json" };
import frDashboard from "../../locales/fr/dashboard.json" with { type: "json" };
import frDev from "../../locales/fr/dev.json" with { type: "json" };
import frErrors from "../../locales/fr/errors.json" with { type: "json" };
import frInvites from "../../locales/fr/invites.json" with { type: "json" };
import frMarketing from "../../locales/fr/marketing.json" with { type: "json" };
import frNotes from "../../locales/fr/notes.json" with { type: "json" };
import frOrg from "../../locales/fr/org.json" with { type: "json" };
import frOrgSettings from "../../locales/fr/orgSettings.json" with { type: "json" };
import frPatients from "../../locales/fr/patients.json" with { type: "json" };
import frPerio from "../../locales/fr/perio.json" with { type: "json" };
import frRag from "../../locales/fr/rag.json" with { type: "json" };
import frRecorder from "../../locales/fr/recorder.json" with { type: "json" };
import frTemplates from "../../locales/fr/templates.json" with { type: "json" };
import frUi from "../../locales/fr/ui.json" with { type: "json" };

/** Every message in every language, held in memory by the server. */
export const resources = {
  en: {
    common: enCommon,
    marketing: enMarketing,
    auth: enAuth,
    app: enApp,
    errors: enErrors,
    dev: enDev,
    org: enOrg,
    orgSettings: enOrgSettings,
    invites: enInvites,
    billing: enBilling,
    recorder: enRecorder,
    notes: enNotes,
    templates: enTemplates,
    patients: enPatients,
    ui: enUi,
    rag: enRag,
    perio: enPerio,
    coding: enCoding,
    asr: enAsr,
    dashboard: enDashboard,
    checks: enChecks,
  },
  fr: {
    common: frCommon,
    marketing: frMarketing,
    auth: frAuth,
    app: frApp,
    errors: frErrors,
    dev: frDev,
    org: frOrg,
    orgSettings: frOrgSettings,
    invites: frInvites,
    billing: frBilling,
    recorder: frRecorder,
    notes: frNotes,
    templates: frTemplates,
    patients: frPatients,
    ui: frUi,
    rag: frRag,
    perio: frPerio,
    coding: frCoding,
    asr: frAsr,
    dashboard: frDashboard,
    checks: frChecks,
  },
  es: {
    common: esCommon,
    marketing: esMarketing,
    auth: esAuth,
    app: esApp,
    errors: esErrors,
    dev: esDev,
    org: esOrg,
    orgSettings: esOrgSettings,
    invites: esInvites,
    billing: esBilling,
    recorder: esRecorder,
    notes: esNotes,
    templates: esTemplates,
    patients: esPatients,
    ui: esUi,
    rag: esRag,
    perio: esPerio,
    coding: esCoding,
    asr: esAsr,
    dashboard: esDashboard,
    checks: esChecks,
  },
} satisfies Resource;
