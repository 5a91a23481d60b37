-- Issue 16, coding on the dashboard: coding cases (0018) coded and exported per day and per
-- clinician, the queue of open cases, and the coding quality telemetry.

-- Coding cases coded per day (and the quality figures, read from the cases coded in a range).
create index coding_cases_org_coded_at_idx on public.coding_cases (org_id, coded_at) where coded_at is not null;
-- Coding cases exported per day.
create index coding_cases_org_exported_at_idx on public.coding_cases (org_id, exported_at) where exported_at is not null;
-- The queue of open cases, oldest first (a reopened case waits since its reopening).
create index coding_cases_org_open_idx on public.coding_cases (org_id, (coalesce(reopened_at, created_at)))
  where status = 'open';

-- Row-level security, same rules, cheaper (as 0021 did for visits and notes): 0018's read policies
-- run `(select app.has_role(org_id, …))` once per row; a year of a 10-clinician practice's cases
-- is ~35,000 rows per figure. "org_id in (the actor's organisations with these roles)" is one
-- hashed subplan per statement. Only the USING side changes; who may read stays as
-- docs/permissions.md "Clinical coding" states it.
alter policy coding_cases_select on public.coding_cases
  using (org_id in (select app.orgs_with_role(array['owner', 'clinician', 'admin', 'staff'])));
alter policy coding_lines_select on public.coding_lines
  using (org_id in (select app.orgs_with_role(array['owner', 'clinician', 'admin', 'staff'])));
