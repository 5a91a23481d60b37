-- Issue 27 "Safe to sign": one list of checks per note (low-confidence words, contradictions,
-- unsupported sentences, omissions), computed server-side after every generation, edit and
-- amendment. A signature needs every gating check resolved (its sentence edited away) or
-- acknowledged by a named person; the rows stay with the note for the signed record.
--
-- Access follows notes (0012): owners and clinicians read and write them, staff and admins never.
-- No role deletes a check: a recomputation that no longer finds one marks it resolved.

create table public.note_checks (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null,
  note_id uuid not null,
  -- Stable within its note (kind + section + sentence + text): a recomputation finds the same row.
  key text not null check (key ~ '^[0-9a-f]{32}$'),
  kind text not null check (kind in ('low_confidence', 'contradiction', 'unsupported', 'omission')),
  -- What kind of contradiction or omission (allergy, symptom, laterality, dose, frequency, …).
  code text not null default '' check (char_length(code) <= 40),
  section text check (char_length(section) <= 40),
  sentence text check (char_length(sentence) <= 4000),
  text text not null check (char_length(text) <= 4000),
  status text not null default 'open' check (status in ('open', 'resolved', 'acknowledged')),
  reason text check (char_length(reason) <= 2000),
  resolved_by uuid references auth.users (id) on delete set null,
  resolved_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (note_id, key),
  check ((status = 'open') = (resolved_at is null)),
  foreign key (org_id, note_id) references public.notes (org_id, id) on delete cascade
);
create index note_checks_org_note_idx on public.note_checks (org_id, note_id, created_at);

-- The signed version keeps the checks that were acknowledged, and by whom, as they were at the signature.
alter table public.note_versions add column checks jsonb
  check (checks is null or jsonb_typeof(checks) = 'array');

revoke delete, truncate on public.note_checks from murmur_app;

alter table public.note_checks enable row level security;
alter table public.note_checks force row level security;

create policy note_checks_select on public.note_checks for select to murmur_app
  using ((select app.has_role(org_id, array['owner', 'clinician'])));
create policy note_checks_insert on public.note_checks for insert to murmur_app
  with check ((select app.has_role(org_id, array['owner', 'clinician'])));
create policy note_checks_update on public.note_checks for update to murmur_app
  using ((select app.has_role(org_id, array['owner', 'clinician'])))
  with check (
    (select app.has_role(org_id, array['owner', 'clinician']))
    and (resolved_by is null or resolved_by = (select auth.uid()))
  );

-- A check never moves to another note, and what it is about never changes; only its status does.
create function app.note_checks_guard() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  if new.org_id <> old.org_id or new.note_id <> old.note_id or new.key <> old.key or new.kind <> old.kind then
    raise exception 'a note check cannot move' using errcode = '42501';
  end if;
  new.updated_at := now();
  return new;
end
$$;
revoke execute on function app.note_checks_guard() from public;
create trigger note_checks_guard before update on public.note_checks
  for each row execute function app.note_checks_guard();
