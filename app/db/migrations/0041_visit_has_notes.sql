-- Issue 25: staff may delete visits, and deleting one deletes its notes (on delete cascade), yet
-- staff cannot read notes (0012_notes.sql policies hide them). A staff member could so delete a
-- clinician's draft — or a signed note — without ever seeing it. The visits service asks this
-- function, which sees past the notes policy, whether a visit carries a note, and refuses staff
-- then (409 visit_has_notes). Members of the organisation only, as org_member_directory().
create function public.visit_has_notes(org uuid, visit uuid) returns boolean
  language sql stable security definer
  set search_path = ''
as $$
  select app.is_member(org) and exists (
    select 1 from public.notes n where n.org_id = org and n.visit_id = visit)
$$;
revoke execute on function public.visit_has_notes(uuid, uuid) from public;
grant execute on function public.visit_has_notes(uuid, uuid) to murmur_app;
