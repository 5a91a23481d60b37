-- Issue 5 "Transcribe while recording": what the speech engine made of each window of a visit's
-- audio, decoded while the visit was still recording, so after Stop only the last windows remain.
--
-- Written and read only by the transcription jobs (owner connection); the key is a hash of the
-- window's exact PCM, the engine, the language and the engine's state going in, so a row is
-- reused only when decoding again would give the same words. Rows go when the visit's final
-- transcript is written, and with the visit (cascade). Members may read (nothing shows them yet);
-- nobody but the jobs writes.

create table public.transcription_window_cache (
  org_id uuid not null,
  visit_id uuid not null,
  cache_key text not null check (cache_key ~ '^[0-9a-f]{64}$'),
  result jsonb not null check (jsonb_typeof(result) = 'object' and pg_column_size(result) <= 2000000),
  created_at timestamptz not null default now(),
  primary key (visit_id, cache_key),
  foreign key (org_id, visit_id) references public.visits (org_id, id) on delete cascade
);
create index transcription_window_cache_org_id_idx on public.transcription_window_cache (org_id, visit_id);

revoke insert, update, delete, truncate on public.transcription_window_cache from murmur_app;

alter table public.transcription_window_cache enable row level security;
alter table public.transcription_window_cache force row level security;

create policy transcription_window_cache_select on public.transcription_window_cache for select to murmur_app
  using ((select app.has_role(org_id, array['owner', 'clinician', 'staff'])));
