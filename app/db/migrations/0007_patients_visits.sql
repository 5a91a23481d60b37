-- Patients, visits, their audio chunks and transcripts (issue 5 "Patients and visits", "Pipeline").
--
-- Access follows docs/permissions.md "Clinical features": owners, clinicians and staff read and
-- write patients and visits; admins manage the organisation but see no clinical data, not even
-- read-only (patient data is protected health information; the table gives admins no ✓).
--
-- Every child row carries org_id and points at its parent through (org_id, id), so a visit can
-- never reference another organisation's patient, nor a chunk or transcript another
-- organisation's visit, whatever a query says. Audio bytes live in blob storage (ADR 8); the
-- rows keep their keys, sizes and SHA-256s.
--
-- Search by name uses lower(display_name) with a btree index led by org_id: pg_trgm exists on
-- Debian's PostgreSQL 15 and in PGlite, but PGlite loads extensions only when the database is
-- opened with them, and migrations must run unchanged on both engines.

-- ---------------------------------------------------------------- patients

create table public.patients (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.organizations (id) on delete cascade,
  display_name text not null check (char_length(btrim(display_name)) between 1 and 200),
  date_of_birth date check (date_of_birth between date '1900-01-01' and date '2200-01-01'),
  sex text check (sex in ('female', 'male', 'other', 'unknown')),
  -- The practice-management system's id of this patient (issue 4 PMS), unique per organisation.
  external_id text check (char_length(btrim(external_id)) between 1 and 100),
  notes text not null default '' check (char_length(notes) <= 10000),
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (org_id, id)
);
create index patients_org_id_name_idx on public.patients (org_id, lower(display_name) text_pattern_ops);
create unique index patients_org_id_external_id_key on public.patients (org_id, external_id) where external_id is not null;

-- ---------------------------------------------------------------- visits

create table public.visits (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.organizations (id) on delete cascade,
  patient_id uuid not null,
  clinician_id uuid references auth.users (id) on delete set null,
  title text not null default '' check (char_length(title) <= 200),
  -- Clinical content keeps the visit's language whatever the interface language is.
  language text not null check (language in ('en', 'fr', 'es')),
  -- Issue 5: consent is confirmed before recording can start, per visit.
  consent_by uuid references auth.users (id) on delete set null,
  consent_at timestamptz not null,
  status text not null default 'draft'
    check (status in ('draft', 'recording', 'uploaded', 'transcribing', 'transcribed', 'failed')),
  failure_code text check (char_length(failure_code) <= 100),
  failure_reason text check (char_length(failure_reason) <= 1000),
  -- The assembled recording (or the uploaded file): one blob per visit.
  audio_source text check (audio_source in ('chunks', 'file')),
  audio_chunk_count integer not null default 0 check (audio_chunk_count between 0 and 100000),
  audio_bytes bigint not null default 0 check (audio_bytes >= 0),
  audio_duration_ms bigint check (audio_duration_ms >= 0),
  audio_sha256 text check (audio_sha256 ~ '^[0-9a-f]{64}$'),
  audio_key text check (char_length(audio_key) <= 500),
  audio_content_type text check (char_length(audio_content_type) <= 200),
  -- What the recorder said at Stop (segments between pauses, counts), kept for diagnosis.
  audio_manifest jsonb check (audio_manifest is null or jsonb_typeof(audio_manifest) = 'object'),
  recording_started_at timestamptz,
  uploaded_at timestamptz,
  transcribed_at timestamptz,
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (org_id, id),
  -- NO ACTION (checked at the end of the statement) so deleting an organisation, which cascades to
  -- both tables, still works; deleting a patient who has visits does not.
  foreign key (org_id, patient_id) references public.patients (org_id, id)
);
create index visits_org_id_created_idx on public.visits (org_id, created_at desc);
create index visits_org_id_patient_idx on public.visits (org_id, patient_id, created_at desc);
create index visits_org_id_status_idx on public.visits (org_id, status);
-- The job runner's recovery sweep looks for visits waiting for transcription.
create index visits_waiting_idx on public.visits (status) where status in ('uploaded', 'transcribing');

-- ---------------------------------------------------------------- audio chunks

-- One row per acknowledged chunk: the server answered 200 only after the blob was stored and
-- this row committed, so an acknowledged chunk is never lost and never silently replaced.
create table public.visit_audio_chunks (
  org_id uuid not null,
  visit_id uuid not null,
  seq integer not null check (seq between 0 and 99999),
  sha256 text not null check (sha256 ~ '^[0-9a-f]{64}$'),
  bytes integer not null check (bytes >= 0),
  storage_key text not null check (char_length(storage_key) <= 500),
  received_at timestamptz not null default now(),
  primary key (visit_id, seq),
  foreign key (org_id, visit_id) references public.visits (org_id, id) on delete cascade
);
create index visit_audio_chunks_org_id_idx on public.visit_audio_chunks (org_id, visit_id);

-- ---------------------------------------------------------------- transcriptions

-- Versions are immutable: the engine's original stays, an edit or an import adds a version.
create table public.transcriptions (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null,
  visit_id uuid not null,
  version integer not null check (version between 1 and 100000),
  source text not null check (source in ('engine', 'import', 'edit')),
  engine text not null check (char_length(engine) between 1 and 100),
  model text check (char_length(model) <= 200),
  language text not null check (language in ('en', 'fr', 'es')),
  text text not null check (char_length(text) <= 2000000),
  segments jsonb not null default '[]'::jsonb check (jsonb_typeof(segments) = 'array'),
  status text not null default 'completed' check (status in ('partial', 'completed')),
  -- The audio an engine transcribed; a retried job finds its transcript by it.
  audio_sha256 text check (audio_sha256 ~ '^[0-9a-f]{64}$'),
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  unique (visit_id, version),
  foreign key (org_id, visit_id) references public.visits (org_id, id) on delete cascade
);
create index transcriptions_org_id_idx on public.transcriptions (org_id, visit_id, version desc);
-- A retried or duplicated transcription job never adds a second engine transcript of the same audio.
create unique index transcriptions_engine_once_per_audio
  on public.transcriptions (visit_id, audio_sha256) where source = 'engine';

-- ---------------------------------------------------------------- privileges

-- Chunks and transcript versions are written once; they go away with their visit (cascade).
revoke update, truncate on public.visit_audio_chunks from murmur_app;
revoke update, delete, truncate on public.transcriptions from murmur_app;
revoke truncate on public.patients, public.visits from murmur_app;

-- ---------------------------------------------------------------- row-level security

alter table public.patients enable row level security;
alter table public.patients force row level security;
alter table public.visits enable row level security;
alter table public.visits force row level security;
alter table public.visit_audio_chunks enable row level security;
alter table public.visit_audio_chunks force row level security;
alter table public.transcriptions enable row level security;
alter table public.transcriptions force row level security;

create policy patients_all on public.patients for all to murmur_app
  using ((select app.has_role(org_id, array['owner', 'clinician', 'staff'])))
  with check ((select app.has_role(org_id, array['owner', 'clinician', 'staff'])));

create policy visits_all on public.visits for all to murmur_app
  using ((select app.has_role(org_id, array['owner', 'clinician', 'staff'])))
  with check ((select app.has_role(org_id, array['owner', 'clinician', 'staff'])));

create policy visit_audio_chunks_all on public.visit_audio_chunks for all to murmur_app
  using ((select app.has_role(org_id, array['owner', 'clinician', 'staff'])))
  with check ((select app.has_role(org_id, array['owner', 'clinician', 'staff'])));

create policy transcriptions_select on public.transcriptions for select to murmur_app
  using ((select app.has_role(org_id, array['owner', 'clinician', 'staff'])));
create policy transcriptions_insert on public.transcriptions for insert to murmur_app
  with check (
    (select app.has_role(org_id, array['owner', 'clinician', 'staff']))
    and created_by = (select auth.uid())
  );

-- ---------------------------------------------------------------- triggers

-- A row never moves to another organisation or changes its id; a visit's consent record is
-- written once. Applies to every role: nothing legitimate rewrites these columns.
create function app.clinical_row_guard() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  if new.id <> old.id or new.org_id <> old.org_id then
    raise exception 'id and org_id cannot change' using errcode = '42501';
  end if;
  if tg_table_name = 'visits' and (
       new.consent_at is distinct from old.consent_at
       or new.consent_by is distinct from old.consent_by
       or new.created_by is distinct from old.created_by) then
    raise exception 'the consent record cannot change' using errcode = '42501';
  end if;
  new.updated_at := now();
  return new;
end
$$;
revoke execute on function app.clinical_row_guard() from public;
create trigger patients_guard before update on public.patients
  for each row execute function app.clinical_row_guard();
create trigger visits_guard before update on public.visits
  for each row execute function app.clinical_row_guard();
