-- Issue 15 "Per-organisation vocabulary" (ADR 0032): the words an organisation's embedded speech
-- engine learns — the owner's own list, and the terms a job collects from the organisation's
-- clinicians' names, templates and signed notes (with pronunciations for words the base
-- dictionary lacks). One row per organisation; it never leaves the organisation: only its owner
-- reads or writes it through the app, and the transcription job reads it for that organisation only.

create table public.org_vocabulary (
  org_id uuid primary key references public.organizations (id) on delete cascade,
  -- Typed by the owner in settings; each entry one word or a short phrase.
  custom_terms text[] not null default '{}'
    check (cardinality(custom_terms) <= 500 and array_position(custom_terms, null) is null),
  -- VocabularyTerm[] (app/services/speech/org-vocab/terms.ts), written by the refresh job only.
  terms jsonb not null default '[]'::jsonb check (jsonb_typeof(terms) = 'array'),
  -- A hash of `terms`: the on-disk model cache's key; '' until the first refresh.
  version text not null default '' check (char_length(version) <= 64),
  refreshed_at timestamptz,
  updated_by uuid references auth.users (id) on delete set null,
  updated_at timestamptz not null default now()
);

revoke delete, truncate on public.org_vocabulary from murmur_app;

alter table public.org_vocabulary enable row level security;
alter table public.org_vocabulary force row level security;

create policy org_vocabulary_select on public.org_vocabulary for select to murmur_app
  using ((select app.has_role(org_id, array['owner'])));
create policy org_vocabulary_insert on public.org_vocabulary for insert to murmur_app
  with check ((select app.has_role(org_id, array['owner'])) and updated_by = (select auth.uid()));
create policy org_vocabulary_update on public.org_vocabulary for update to murmur_app
  using ((select app.has_role(org_id, array['owner'])))
  with check ((select app.has_role(org_id, array['owner'])) and updated_by = (select auth.uid()));

-- The app role writes only the owner's list; the collected terms are the job's (owner connection).
revoke insert, update on public.org_vocabulary from murmur_app;
grant insert (org_id, custom_terms, updated_by, updated_at) on public.org_vocabulary to murmur_app;
grant update (custom_terms, updated_by, updated_at) on public.org_vocabulary to murmur_app;
