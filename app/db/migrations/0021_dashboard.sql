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
