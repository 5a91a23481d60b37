-- Issue 5 "Pipeline": transcription progress for the visit page's events stream, and re-runs.
--
-- Progress lives on the visit row so any instance serving GET /api/visits/:id/events reads it
-- from the database (no in-process pub/sub): the job writes a fraction 0–1 at most once a
-- second while it transcribes, and clears it when it stops.
--
-- Re-runs: the job's idempotency key was the audio's SHA-256, so a second engine transcript of
-- the same audio could never be written. A re-run request now bumps the visit's
-- transcription_round; the job keys idempotency on (audio SHA-256, round), so a retried or
-- duplicated job of one round still writes at most one transcript, and a new round writes the
-- next version.

alter table public.visits
  add column transcription_progress real
    check (transcription_progress is null or (transcription_progress >= 0 and transcription_progress <= 1)),
  add column transcription_round integer not null default 1
    check (transcription_round between 1 and 100000);

-- The round an engine transcript belongs to (1 for every transcript written before re-runs).
alter table public.transcriptions
  add column transcription_round integer not null default 1
    check (transcription_round between 1 and 100000);

drop index public.transcriptions_engine_once_per_audio;
create unique index transcriptions_engine_once_per_round
  on public.transcriptions (visit_id, audio_sha256, transcription_round) where source = 'engine';
