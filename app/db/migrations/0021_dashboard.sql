-- Issue 16 "The dashboard a practice opens every morning": indexes for every dashboard query, and
-- one counting function so the plan block reads the same "visits this month" for every role.
--
-- Day buckets are cut in JavaScript (app/utils/zoned-time.ts, the organisation's zone) and handed
-- to SQL as [start, end) instants, so every figure is an index range scan led by org_id.

-- Visits per day and minutes per day, filtered by clinician.
create index visits_org_clinician_created_idx on public.visits (org_id, clinician_id, created_at);
-- Visits this month (the plan's allowance counts recordings started on the organisation's clock).
create index visits_org_recording_started_idx on public.visits (org_id, recording_started_at)
  where recording_started_at is not null;
-- Notes signed per day, median draft → signature.
create index notes_org_signed_at_idx on public.notes (org_id, signed_at) where signed_at is not null;
-- Median Stop → draft: notes by the time their draft was written.
create index notes_org_generated_at_idx on public.notes (org_id, generated_at) where generated_at is not null;
-- The queue of drafts waiting for a signature, oldest first.
create index notes_org_drafts_idx on public.notes (org_id, created_at) where status = 'draft';
-- Pending invitations.
create index invitations_org_pending_idx on public.invitations (org_id, expires_at)
  where accepted_at is null and revoked_at is null;

-- The plan block's "visits this month against the plan's limit", for every member: admins manage
-- billing but may not read visits (docs/permissions.md), and a count reveals no clinical data.
-- Only a member of `org` gets a number; anyone else gets null.
create function public.org_visits_started_since(org uuid, since timestamptz) returns integer
  language sql stable security definer
  set search_path = ''
as $$
  select case when app.is_member(org) then
    (select count(*)::int from public.visits v where v.org_id = org and v.recording_started_at >= since)
  end
$$;
revoke execute on function public.org_visits_started_since(uuid, timestamptz) from public;
grant execute on function public.org_visits_started_since(uuid, timestamptz) to murmur_app;

-- ---------------------------------------------------------------- row-level security, same rules, cheaper

-- The policies below read `(select app.has_role(org_id, roles))`: a subplan correlated on the
-- row's org_id, so PostgreSQL runs it once per row (≈0.075 ms each). Counting a month of a busy
-- practice's visits spent 266 ms on it, 351 ms for its drafts (bench/dashboard, 40,000 visits).
-- The same rule — a member of the row's organisation with one of these roles — written as
-- "org_id in (the actor's organisations with these roles)" is a hashed subplan run once per
-- statement (18 ms). Only the USING side changes; WITH CHECK keeps has_role, and every rule
-- (who may read, insert or update what) stays exactly as docs/permissions.md states it.
create function app.orgs_with_role(roles text[]) returns setof uuid
  language sql stable security definer
  set search_path = ''
as $$
  select m.org_id from public.org_members m where m.user_id = (select auth.uid()) and m.role = any (roles)
$$;
revoke execute on function app.orgs_with_role(text[]) from public;
grant execute on function app.orgs_with_role(text[]) to murmur_app;

alter policy patients_all on public.patients
  using (org_id in (select app.orgs_with_role(array['owner', 'clinician', 'staff'])));
alter policy visits_all on public.visits
  using (org_id in (select app.orgs_with_role(array['owner', 'clinician', 'staff'])));
alter policy notes_select on public.notes
  using (org_id in (select app.orgs_with_role(array['owner', 'clinician'])));
alter policy notes_update on public.notes
  using (org_id in (select app.orgs_with_role(array['owner', 'clinician'])));
alter policy note_versions_select on public.note_versions
  using (org_id in (select app.orgs_with_role(array['owner', 'clinician'])));
