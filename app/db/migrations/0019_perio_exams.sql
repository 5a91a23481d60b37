-- Periodontal exams (issue 14 "The chart"): one row per exam of a patient, the whole six-site
-- chart in `data` (app/services/perio/model.ts PerioChartData: 32 teeth × 6 sites, small and
-- always read and written whole), the clinician's risk factors and confirmed classification.
--
-- Access follows docs/permissions.md "Clinical features" as issue 14 states it: owners, clinicians
-- and staff (hygienists and assistants chart); admins see no clinical data. The services check
-- the same list first (403 forbidden_role).
--
-- `version` is the optimistic-concurrency counter: every PATCH names the version it read and the
-- UPDATE matches only that version, so two people on one exam get 409 version_conflict instead of
-- a silent overwrite.

create table public.perio_exams (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.organizations (id) on delete cascade,
  patient_id uuid not null,
  exam_date date not null check (exam_date between date '1900-01-01' and date '2200-01-01'),
  version integer not null default 1 check (version between 1 and 1000000000),
  data jsonb not null check (jsonb_typeof(data) = 'object' and jsonb_typeof(data -> 'teeth') = 'object'),
  -- RiskFactors (services/perio/classification.ts) as the clinician entered them.
  risk jsonb not null default '{}'::jsonb check (jsonb_typeof(risk) = 'object'),
  -- { stage, extent, grade, overridden } once a clinician confirms or overrides the proposal.
  confirmed jsonb check (confirmed is null or jsonb_typeof(confirmed) = 'object'),
  confirmed_by uuid references auth.users (id) on delete set null,
  confirmed_at timestamptz,
  copied_from uuid,
  created_by uuid references auth.users (id) on delete set null,
  updated_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (org_id, id),
  foreign key (org_id, patient_id) references public.patients (org_id, id) on delete cascade,
  foreign key (org_id, copied_from) references public.perio_exams (org_id, id) on delete set null (copied_from)
);
create index perio_exams_org_patient_idx on public.perio_exams (org_id, patient_id, exam_date desc, created_at desc);

revoke truncate on public.perio_exams from murmur_app;

alter table public.perio_exams enable row level security;
alter table public.perio_exams force row level security;

create policy perio_exams_all on public.perio_exams for all to murmur_app
  using ((select app.has_role(org_id, array['owner', 'clinician', 'staff'])))
  with check ((select app.has_role(org_id, array['owner', 'clinician', 'staff'])));

-- An exam never moves to another organisation or patient (same guard as patients and visits).
create function app.perio_exams_guard() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  if new.id <> old.id or new.org_id <> old.org_id or new.patient_id <> old.patient_id then
    raise exception 'id, org_id and patient_id cannot change' using errcode = '42501';
  end if;
  new.updated_at := now();
  return new;
end
$$;
revoke execute on function app.perio_exams_guard() from public;
create trigger perio_exams_guard before update on public.perio_exams
  for each row execute function app.perio_exams_guard();
