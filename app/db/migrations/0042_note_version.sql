-- Issue 25: PUT /api/notes/:id had no version check, so of two concurrent edits the first was
-- silently lost. Every change of a note's text (a draft edit, a regenerated section, signing, an
-- amendment) or of its status now raises `version`; a save names the version it edited and gets
-- 409 version_conflict when the note moved on. Ratings and generation progress do not count.
alter table public.notes add column version integer not null default 1;

create function app.notes_bump_version() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  if new.content is distinct from old.content
     or new.sections is distinct from old.sections
     or new.status is distinct from old.status then
    new.version := old.version + 1;
  else
    new.version := old.version;
  end if;
  return new;
end
$$;
revoke execute on function app.notes_bump_version() from public;
create trigger notes_bump_version before update on public.notes
  for each row execute function app.notes_bump_version();
