-- Note templates (issue 6 "Templates"): an organisation's own templates and its members' personal
-- ones. The built-in library (SOAP, H&P, …) lives in code (app/services/notes/templates/builtin/)
-- and is never stored; a row's based_on remembers which built-in or template it was copied from.
--
-- owner_user_id null = an organisation template, read by every member and written by owners and
-- admins only; otherwise a member's personal template, read and written by that member alone.
-- A clinician or staff member who edits an organisation template gets a personal copy (the
-- service does it; the policies below make an in-place write impossible for them anyway).
--
-- Templates hold no patient data, so unlike visits admins may read them: they manage the
-- organisation's templates.

create table public.note_templates (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.organizations (id) on delete cascade,
  owner_user_id uuid references auth.users (id) on delete cascade,
  name text not null check (char_length(btrim(name)) between 1 and 120),
  language text not null check (language in ('en', 'fr', 'es')),
  description text not null default '' check (char_length(description) <= 1000),
  -- TemplateSection[] (app/services/notes/model.ts), validated by the service's zod schema.
  sections jsonb not null check (jsonb_typeof(sections) = 'array' and jsonb_array_length(sections) between 1 and 40),
  based_on text check (char_length(based_on) <= 100),
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  archived_at timestamptz
);
create index note_templates_org_id_idx on public.note_templates (org_id, owner_user_id) where archived_at is null;
create index note_templates_org_id_all_idx on public.note_templates (org_id);

-- Deleting a template archives it (notes keep pointing at it); rows are never removed by the app.
revoke delete, truncate on public.note_templates from murmur_app;

alter table public.note_templates enable row level security;
alter table public.note_templates force row level security;

create policy note_templates_select on public.note_templates for select to murmur_app
  using (
    (owner_user_id is null and (select app.is_member(org_id)))
    or (owner_user_id = (select auth.uid()) and (select app.is_member(org_id)))
  );

create policy note_templates_insert on public.note_templates for insert to murmur_app
  with check (
    (owner_user_id is null and (select app.has_role(org_id, array['owner', 'admin'])))
    or (owner_user_id = (select auth.uid()) and (select app.is_member(org_id)))
  );

-- The row before and after an update must both be writable by the actor, so nobody can turn a
-- personal template into an organisation one (or another member's) without being owner or admin.
create policy note_templates_update on public.note_templates for update to murmur_app
  using (
    (owner_user_id is null and (select app.has_role(org_id, array['owner', 'admin'])))
    or (owner_user_id = (select auth.uid()) and (select app.is_member(org_id)))
  )
  with check (
    (owner_user_id is null and (select app.has_role(org_id, array['owner', 'admin'])))
    or (owner_user_id = (select auth.uid()) and (select app.is_member(org_id)))
  );
