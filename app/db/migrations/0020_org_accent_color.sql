-- Issue 11: a practice's accent colour for its signed-in pages (Settings → Organisation, owners and
-- admins). Null is Murmur's own colour. Only a lower-case #rrggbb is stored, so the value can be
-- written into a stylesheet as it is; the app also refuses colours that white text cannot be read
-- on (app/utils/accent.ts). The table's row-level security and its update policy (owners and
-- admins, 0003_organizations.sql) already cover the new column.
alter table public.organizations add column accent_color text
  check (accent_color is null or accent_color ~ '^#[0-9a-f]{6}$');
