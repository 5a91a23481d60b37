-- Notes drafted from a visit's transcript with a template, then edited, signed and amended
-- (issue 6 "Generation", "The note editor").
--
-- Access follows docs/permissions.md "Clinical features": notes belong to owners and clinicians,
-- who read, generate, edit, sign and amend them. Staff work with patients, visits and uploads but
-- not notes (the table gives them no ✓ on "Notes" nor on "Signing notes"); admins see no clinical
-- data at all. The services check the same list first (403 forbidden_role).
--
-- A note keeps the template it was generated with (a snapshot: later edits of the template do not
-- change what a note meant), the draft as generated (`sections`, the baseline of the per-section
-- edit distance stored when it is signed) and the current text (`content`). Every save, the
-- signature and every amendment append an immutable row to note_versions with a SHA-256 of the
-- content; signed and amendment versions can never change or go away, for any role.

create table public.notes (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.organizations (id) on delete cascade,
  visit_id uuid not null,
  patient_id uuid not null,
  template_id text not null check (char_length(template_id) between 1 and 100),
  template jsonb not null check (jsonb_typeof(template) = 'object'),
  -- Clinical content keeps its own language whatever the interface language is.
  language text not null check (language in ('en', 'fr', 'es')),
  status text not null default 'generating'
    check (status in ('generating', 'draft', 'failed', 'signed', 'amended')),
  engine text check (char_length(engine) <= 100),
  model text check (char_length(model) <= 200),
  -- NoteSectionDraft[] as the engine wrote them (regenerating a section replaces that section).
  sections jsonb not null default '[]'::jsonb check (jsonb_typeof(sections) = 'array'),
  -- The current text: the draft with the clinician's edits, then the signed or amended note.
  content jsonb not null default '[]'::jsonb check (jsonb_typeof(content) = 'array'),
  omissions jsonb not null default '[]'::jsonb check (jsonb_typeof(omissions) = 'array'),
  progress real check (progress is null or (progress >= 0 and progress <= 1)),
  -- Bumped by every generation request; a job writes only the round it started for, so a
  -- retried job overwrites the same draft and a stale one writes nothing.
  generation integer not null default 1 check (generation between 1 and 100000),
  -- Section keys the current round regenerates; null = the whole note.
  pending_sections text[],
  failure_code text check (char_length(failure_code) <= 100),
  failure_reason text check (char_length(failure_reason) <= 1000),
  rating smallint check (rating between 1 and 5),
  rating_comment text check (char_length(rating_comment) <= 2000),
  generated_at timestamptz,
  signed_at timestamptz,
  signed_by uuid references auth.users (id) on delete set null,
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (org_id, id),
  -- A draft goes with its visit; a signed note stops its visit from being deleted (trigger below).
  foreign key (org_id, visit_id) references public.visits (org_id, id) on delete cascade,
  foreign key (org_id, patient_id) references public.patients (org_id, id)
);
create index notes_org_id_created_idx on public.notes (org_id, created_at desc);
create index notes_org_id_visit_idx on public.notes (org_id, visit_id, created_at desc);
-- The patient's last signed note feeds the persistent sections of the next one.
create index notes_org_id_patient_signed_idx on public.notes (org_id, patient_id, signed_at desc)
  where signed_at is not null;

create table public.note_versions (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null,
  note_id uuid not null,
  version integer not null check (version between 1 and 100000),
  kind text not null check (kind in ('draft_edit', 'signed', 'amendment')),
  sections jsonb not null check (jsonb_typeof(sections) = 'array'),
  -- SHA-256 (hex) of the canonical serialisation of the sections (notes/content-hash.ts).
  content_sha256 text not null check (content_sha256 ~ '^[0-9a-f]{64}$'),
  author_id uuid references auth.users (id) on delete set null,
  amendment_reason text check (char_length(amendment_reason) between 1 and 2000),
  -- On the signed version: { section key: edit distance between the generated and the signed text }.
  edit_distance jsonb check (edit_distance is null or jsonb_typeof(edit_distance) = 'object'),
  created_at timestamptz not null default now(),
  unique (note_id, version),
  check ((kind = 'amendment') = (amendment_reason is not null)),
  foreign key (org_id, note_id) references public.notes (org_id, id) on delete cascade
);
create index note_versions_org_id_idx on public.note_versions (org_id, note_id, version desc);

-- ---------------------------------------------------------------- privileges

revoke update, delete, truncate on public.note_versions from murmur_app;
revoke delete, truncate on public.notes from murmur_app;

-- ---------------------------------------------------------------- row-level security

alter table public.notes enable row level security;
alter table public.notes force row level security;
alter table public.note_versions enable row level security;
alter table public.note_versions force row level security;

create policy notes_select on public.notes for select to murmur_app
  using ((select app.has_role(org_id, array['owner', 'clinician'])));
create policy notes_insert on public.notes for insert to murmur_app
  with check (
    (select app.has_role(org_id, array['owner', 'clinician']))
    and created_by = (select auth.uid())
  );
create policy notes_update on public.notes for update to murmur_app
  using ((select app.has_role(org_id, array['owner', 'clinician'])))
  with check ((select app.has_role(org_id, array['owner', 'clinician'])));

create policy note_versions_select on public.note_versions for select to murmur_app
  using ((select app.has_role(org_id, array['owner', 'clinician'])));
create policy note_versions_insert on public.note_versions for insert to murmur_app
  with check (
    (select app.has_role(org_id, array['owner', 'clinician']))
    and author_id = (select auth.uid())
  );

-- ---------------------------------------------------------------- triggers

-- A note never moves to another organisation, visit or patient. Once signed its text changes
-- only through amendments (status amended, a new version row), and its signature stays.
create function app.notes_guard() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  if new.id <> old.id or new.org_id <> old.org_id or new.visit_id <> old.visit_id
     or new.patient_id <> old.patient_id or new.created_by is distinct from old.created_by then
    raise exception 'a note cannot move' using errcode = '42501';
  end if;
  if old.status in ('signed', 'amended') and (
       new.status not in ('signed', 'amended')
       or new.signed_at is distinct from old.signed_at
       or new.signed_by is distinct from old.signed_by
       or new.sections is distinct from old.sections
       or new.template is distinct from old.template
       or new.language <> old.language) then
    raise exception 'a signed note changes only by amendment' using errcode = '42501';
  end if;
  new.updated_at := now();
  return new;
end
$$;
revoke execute on function app.notes_guard() from public;
create trigger notes_guard before update on public.notes
  for each row execute function app.notes_guard();

-- Signed notes are records: no role deletes them, not even through a visit's cascade.
create function app.notes_keep_signed() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  if old.status in ('signed', 'amended') then
    raise exception 'a signed note cannot be deleted' using errcode = '42501';
  end if;
  return old;
end
$$;
revoke execute on function app.notes_keep_signed() from public;
create trigger notes_keep_signed before delete on public.notes
  for each row execute function app.notes_keep_signed();

-- Versions are written once, whoever asks (privileges above stop murmur_app; this stops the owner).
-- Draft edits of a deleted draft note go with it.
create function app.note_versions_immutable() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' then
    raise exception 'note versions cannot change' using errcode = '42501';
  end if;
  if old.kind in ('signed', 'amendment') then
    raise exception 'signed note versions cannot be deleted' using errcode = '42501';
  end if;
  return old;
end
$$;
revoke execute on function app.note_versions_immutable() from public;
create trigger note_versions_immutable before update or delete on public.note_versions
  for each row execute function app.note_versions_immutable();
