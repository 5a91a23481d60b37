import { Command } from "cmdk";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { Icon, type IconName } from "#app/components/ui/icons.tsx";
import { useLocalizedPath } from "#app/i18n/use-locale.ts";
import type { MemberOrg } from "#app/services/org-context/current-org.ts";
import { APP_NAV, SETTINGS_PAGES } from "./nav-items.ts";

interface PatientHit {
  id: string;
  display_name: string;
  date_of_birth: string | null;
  external_id: string | null;
}

const PATIENT_LIMIT = 8;

/** Patients matching the query, from the organisation's patient API (issue 5), debounced. */
function usePatientSearch(query: string, orgId: string): { hits: PatientHit[]; loading: boolean } {
  const [hits, setHits] = useState<PatientHit[]>([]);
  const [loading, setLoading] = useState(false);
  useEffect(() => {
    const q = query.trim();
    if (q.length < 2) {
      setHits([]);
      return;
    }
    const controller = new AbortController();
    setLoading(true);
    const timer = window.setTimeout(() => {
      fetch(`/api/patients?${new URLSearchParams({ q, limit: String(PATIENT_LIMIT) })}`, {
        headers: { "x-org-id": orgId, accept: "application/json" },
        signal: controller.signal,
      })
        .then((response) => (response.ok ? (response.json() as Promise<PatientHit[]>) : []))
        .then((rows) => setHits(Array.isArray(rows) ? rows : []))
        .catch(() => {})
        .finally(() => setLoading(false));
    }, 150);
    return () => {
      controller.abort();
      window.clearTimeout(timer);
    };
  }, [query, orgId]);
  return { hits, loading };
}

/**
 * ⌘K / Ctrl+K (issue 11): jump to a patient, a page or an action. cmdk gives the combobox and
 * listbox semantics (aria-activedescendant, arrow keys, Enter) inside a Radix dialog (focus trap,
 * Escape, focus returned to the trigger).
 */
export default function CommandPalette({
  open,
  onOpenChange,
  org,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  org: MemberOrg;
}) {
  const { t } = useTranslation("common");
  const to = useLocalizedPath();
  const navigate = useNavigate();
  const [query, setQuery] = useState("");
  const { hits, loading } = usePatientSearch(query, org.id);
  const go = (path: string) => {
    onOpenChange(false);
    setQuery("");
    void navigate(to(path));
  };
  const actions: { id: string; path: string; icon: IconName }[] = [
    { id: "startVisit", path: "/transcribing", icon: "mic" },
    { id: "addPatient", path: "/dashboard?new=1#new-patient", icon: "users" },
    { id: "newTemplate", path: "/custom-templates", icon: "template" },
    { id: "createOrg", path: "/organizations/new", icon: "building" },
  ];
  return (
    <Command.Dialog
      open={open}
      onOpenChange={onOpenChange}
      label={t("palette.label")}
      className="ui-palette"
      overlayClassName="ui-overlay"
      contentClassName="ui-palette-content"
      data-testid="command-palette"
    >
      <div className="ui-palette-input">
        <Icon name="search" className="shrink-0 text-muted" />
        <Command.Input value={query} onValueChange={setQuery} placeholder={t("palette.placeholder")} />
      </div>
      <Command.List>
        <Command.Empty>{loading ? t("palette.searching") : t("palette.empty")}</Command.Empty>
        {hits.length > 0 ? (
          <Command.Group heading={t("palette.groups.patients")}>
            {hits.map((patient) => (
              <Command.Item
                key={patient.id}
                value={`patient ${patient.id} ${patient.display_name} ${patient.external_id ?? ""}`}
                onSelect={() => go(`/patients/${patient.id}`)}
              >
                <Icon name="user" className="shrink-0" />
                <span className="ui-truncate">{patient.display_name}</span>
                {patient.date_of_birth ? <small>{patient.date_of_birth}</small> : null}
              </Command.Item>
            ))}
          </Command.Group>
        ) : null}
        <Command.Group heading={t("palette.groups.actions")}>
          {actions.map((action) => (
            <Command.Item key={action.id} value={t(`palette.actions.${action.id}`)} onSelect={() => go(action.path)}>
              <Icon name={action.icon} className="shrink-0" />
              <span>{t(`palette.actions.${action.id}`)}</span>
            </Command.Item>
          ))}
        </Command.Group>
        <Command.Group heading={t("palette.groups.pages")}>
          {APP_NAV.map((item) => (
            <Command.Item key={item.path} value={t(item.key)} onSelect={() => go(item.path)}>
              <Icon name={item.icon} className="shrink-0" />
              <span>{t(item.key)}</span>
            </Command.Item>
          ))}
          {SETTINGS_PAGES.map((page) => (
            <Command.Item
              key={page.path + page.key}
              value={`${t("nav.settings")} ${t(`palette.pages.${page.key}`)}`}
              onSelect={() => go(page.path)}
            >
              <Icon name="settings" className="shrink-0" />
              <span>
                {t("nav.settings")} › {t(`palette.pages.${page.key}`)}
              </span>
            </Command.Item>
          ))}
        </Command.Group>
      </Command.List>
    </Command.Dialog>
  );
}
