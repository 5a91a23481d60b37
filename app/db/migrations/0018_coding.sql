-- Clinical coding (issue 13 "Coding cases"): one coding case per visit, opened from its note, with
-- the engine's suggestions kept as proposed and the lines a coder decided on (accepted, rejected
-- with a reason, edited, added by search). Rejections and edits stay as quality data.
--
-- Access (docs/permissions.md "Clinical coding", decided in issue 13): owners and clinicians code —
-- open a case, accept, reject, edit, add lines, mark it coded. Staff and admins read and export cases
-- (the billing side of a practice): they may move a coded case to exported and nothing else
-- (coding_cases_guard). Nobody deletes a case or a line through the app.

create table public.coding_cases (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.organizations (id) on delete cascade,
  visit_id uuid not null,
  note_id uuid not null,
  patient_id uuid not null,
  status text not null default 'open' check (status in ('open', 'coded', 'exported')),
  engine text not null check (char_length(engine) between 1 and 100),
  -- Suggestion[] (app/services/coding/model.ts) exactly as the engine proposed them, after validation.
  suggestions jsonb not null default '[]'::jsonb check (jsonb_typeof(suggestions) = 'array'),
  -- The note text the suggestions' evidence offsets point into (sections as "Title\ntext", blank-line separated).
  source_text text not null default '' check (char_length(source_text) <= 200000),
  -- The note's version (note_versions.version) the suggestions were made from; an amendment reopens.
  note_version integer check (note_version between 1 and 100000),
  reopened_at timestamptz,
  coded_at timestamptz,
  coded_by uuid references auth.users (id) on delete set null,
  exported_at timestamptz,
  exported_by uuid references auth.users (id) on delete set null,
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (org_id, id),
  unique (org_id, visit_id),
  foreign key (org_id, note_id) references public.notes (org_id, id) on delete cascade,
  foreign key (org_id, visit_id) references public.visits (org_id, id) on delete cascade
);
create index coding_cases_org_id_status_idx on public.coding_cases (org_id, status, updated_at desc);

create table public.coding_lines (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null,
  case_id uuid not null,
  position integer not null check (position between 0 and 10000),
  kind text not null check (kind in ('diagnosis', 'procedure')),
  system text not null check (system in ('icd10cm', 'hcpcs', 'cpt', 'cdt')),
  code text not null check (code ~ '^[A-Z0-9.]{1,10}$'),
  description text not null check (char_length(description) between 1 and 1000),
  state text not null check (state in ('suggested', 'accepted', 'rejected')),
  origin text not null check (origin in ('engine', 'manual')),
  -- The engine's code when a coder changed it (an edit), kept as quality data.
  suggested_code text check (suggested_code ~ '^[A-Z0-9.]{1,10}$'),
  reject_reason text check (char_length(btrim(reject_reason)) between 1 and 500),
  confidence real check (confidence is null or (confidence >= 0 and confidence <= 1)),
  evidence jsonb not null default '[]'::jsonb check (jsonb_typeof(evidence) = 'array'),
  rationale text not null default '' check (char_length(rationale) <= 2000),
  -- Procedure lines: modifiers, units, pointers to diagnosis line positions, dental tooth/surfaces.
  modifiers text[] not null default '{}' check (cardinality(modifiers) <= 4),
  units integer not null default 1 check (units between 1 and 999),
  pointers integer[] not null default '{}' check (cardinality(pointers) <= 12),
  tooth text check (char_length(tooth) <= 10),
  surfaces text check (surfaces ~ '^[MODBLIF]{1,5}$'),
  decided_by uuid references auth.users (id) on delete set null,
  decided_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (case_id, system, code),
  check ((state = 'rejected') = (reject_reason is not null)),
  foreign key (org_id, case_id) references public.coding_cases (org_id, id) on delete cascade
);
create index coding_lines_org_id_case_idx on public.coding_lines (org_id, case_id, position);

revoke delete, truncate on public.coding_cases from murmur_app;
revoke delete, truncate on public.coding_lines from murmur_app;

alter table public.coding_cases enable row level security;
alter table public.coding_cases force row level security;
alter table public.coding_lines enable row level security;
alter table public.coding_lines force row level security;

create policy coding_cases_select on public.coding_cases for select to murmur_app
  using ((select app.has_role(org_id, array['owner', 'clinician', 'admin', 'staff'])));
create policy coding_cases_insert on public.coding_cases for insert to murmur_app
  with check ((select app.has_role(org_id, array['owner', 'clinician'])) and created_by = (select auth.uid()));
-- Staff and admins update only to export (the guard below checks which columns change).
create policy coding_cases_update on public.coding_cases for update to murmur_app
  using ((select app.has_role(org_id, array['owner', 'clinician', 'admin', 'staff'])))
  with check ((select app.has_role(org_id, array['owner', 'clinician', 'admin', 'staff'])));

create policy coding_lines_select on public.coding_lines for select to murmur_app
  using ((select app.has_role(org_id, array['owner', 'clinician', 'admin', 'staff'])));
create policy coding_lines_insert on public.coding_lines for insert to murmur_app
  with check ((select app.has_role(org_id, array['owner', 'clinician'])));
create policy coding_lines_update on public.coding_lines for update to murmur_app
  using ((select app.has_role(org_id, array['owner', 'clinician'])))
  with check ((select app.has_role(org_id, array['owner', 'clinician'])));

-- A case never moves to another organisation, visit or note; a reader who is not a coder may only
-- export a coded case.
create function app.coding_cases_guard() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  if new.id <> old.id or new.org_id <> old.org_id or new.visit_id <> old.visit_id
     or new.note_id <> old.note_id or new.patient_id <> old.patient_id then
    raise exception 'a coding case keeps its organisation, visit, note and patient' using errcode = '42501';
  end if;
  if current_user = 'murmur_app' and not app.has_role(new.org_id, array['owner', 'clinician']) then
    if new.status <> 'exported'
       or (to_jsonb(new) - array['status', 'exported_at', 'exported_by', 'updated_at'])
          <> (to_jsonb(old) - array['status', 'exported_at', 'exported_by', 'updated_at']) then
      raise exception 'only owners and clinicians change a coding case' using errcode = '42501';
    end if;
  end if;
  new.updated_at := now();
  return new;
end;
$$;
create trigger coding_cases_guard before update on public.coding_cases
  for each row execute function app.coding_cases_guard();

create function app.coding_lines_guard() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  if new.id <> old.id or new.org_id <> old.org_id or new.case_id <> old.case_id then
    raise exception 'a coding line stays in its case' using errcode = '42501';
  end if;
  new.updated_at := now();
  return new;
end;
$$;
create trigger coding_lines_guard before update on public.coding_lines
  for each row execute function app.coding_lines_guard();

-- ---------------------------------------------------------------- organisation code systems
-- CPT (AMA) and CDT (ADA) are licensed: Murmur ships none of their content. An owner or admin
-- imports the practice's licensed file into an organisation-private, versioned code system; so can
-- a newer HCPCS Level II release. A replacement is a new version made active in the same
-- transaction that deactivates the old one, so an organisation is never left without a code set.

create table public.org_code_systems (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.organizations (id) on delete cascade,
  system text not null check (system in ('cpt', 'cdt', 'hcpcs')),
  version text not null check (version ~ '^[0-9]{4}(-[0-9]{2})?$'),
  active boolean not null default true,
  row_count integer not null check (row_count between 1 and 100000),
  file_sha256 text not null check (file_sha256 ~ '^[0-9a-f]{64}$'),
  imported_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  unique (org_id, id)
);
create unique index org_code_systems_active_key on public.org_code_systems (org_id, system) where active;

create table public.org_codes (
  org_id uuid not null,
  code_system_id uuid not null,
  code text not null check (code ~ '^[A-Z0-9]{4,7}$'),
  short_descriptor text not null check (char_length(short_descriptor) between 1 and 200),
  long_descriptor text not null check (char_length(long_descriptor) between 1 and 2000),
  primary key (code_system_id, code),
  foreign key (org_id, code_system_id) references public.org_code_systems (org_id, id) on delete cascade
);
create index org_codes_org_id_idx on public.org_codes (org_id, code_system_id);

revoke delete, truncate on public.org_code_systems from murmur_app;
revoke update, delete, truncate on public.org_codes from murmur_app;

alter table public.org_code_systems enable row level security;
alter table public.org_code_systems force row level security;
alter table public.org_codes enable row level security;
alter table public.org_codes force row level security;

create policy org_code_systems_select on public.org_code_systems for select to murmur_app
  using ((select app.is_member(org_id)));
create policy org_code_systems_insert on public.org_code_systems for insert to murmur_app
  with check ((select app.has_role(org_id, array['owner', 'admin'])) and imported_by = (select auth.uid()));
create policy org_code_systems_update on public.org_code_systems for update to murmur_app
  using ((select app.has_role(org_id, array['owner', 'admin'])))
  with check ((select app.has_role(org_id, array['owner', 'admin'])));
create policy org_codes_select on public.org_codes for select to murmur_app
  using ((select app.is_member(org_id)));
create policy org_codes_insert on public.org_codes for insert to murmur_app
  with check ((select app.has_role(org_id, array['owner', 'admin'])));
