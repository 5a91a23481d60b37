-- Audio retention (issue 5 "Storage"): each organisation keeps a visit's audio for
-- organizations.settings->'audio_retention_days' days (0–365, default 30) after the transcript was
-- accepted, then a purge job deletes the blobs. The visit, its transcript versions and its chunk
-- rows (sizes and SHA-256s) stay; this column says when the bytes went.
alter table public.visits add column audio_purged_at timestamptz;

-- The purge looks for transcribed visits whose audio is still there.
create index visits_audio_purge_idx on public.visits (transcribed_at)
  where status = 'transcribed' and audio_purged_at is null;
