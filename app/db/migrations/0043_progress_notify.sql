-- Issue 25 "Web and worker roles" (ADR 0038): a visit's transcription and a note's generation run
-- in a worker process while the browser follows them through a web process's event stream. Each
-- change of what those streams show is announced on the `murmur_progress` channel, so every web
-- process wakes the streams that follow that row at once instead of polling it every second. The
-- payload is `<table>:<id>` only: no tenant data travels on the channel, and a woken stream still
-- reads the row as its caller under row-level security. A deleted row is announced too: its
-- streams end at once.

create function public.notify_progress() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  perform pg_notify('murmur_progress', tg_table_name || ':' || (case when tg_op = 'DELETE' then old.id else new.id end)::text);
  return null;
end;
$$;

create trigger visits_notify_progress
  after update of status, transcription_progress, failure_code on public.visits
  for each row
  when (old.status is distinct from new.status
        or old.transcription_progress is distinct from new.transcription_progress
        or old.failure_code is distinct from new.failure_code)
  execute function public.notify_progress();

create trigger notes_notify_progress
  after update of status, progress, failure_code on public.notes
  for each row
  when (old.status is distinct from new.status
        or old.progress is distinct from new.progress
        or old.failure_code is distinct from new.failure_code)
  execute function public.notify_progress();

create trigger visits_notify_deleted
  after delete on public.visits
  for each row execute function public.notify_progress();

create trigger notes_notify_deleted
  after delete on public.notes
  for each row execute function public.notify_progress();
