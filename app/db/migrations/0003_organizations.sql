-- Organisations, memberships, invitations and the audit log (SPEC §1, §3, §4 "Organisation
-- bootstrap"; issue 4). Isolation is membership-based: a user may belong to several organisations,
-- so policies ask "is the acting user a member (with this role)?" through the app.* helpers below;
-- services still filter every query by org_id (CONVENTIONS "Services and data").
--
-- The helpers are SECURITY DEFINER so a policy on org_members can read org_members without
-- recursing into its own policy. They run as the migration owner, which must bypass row-level
-- security (a superuser, or a role with BYPASSRLS such as Supabase's `postgres`).

-- ---------------------------------------------------------------- tables

create table public.organizations (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(btrim(name)) between 1 and 200),
  slug text not null unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and char_length(slug) <= 80),
  kind text not null check (kind in ('personal', 'practice')),
  -- 'Clinic' keeps its capital: it is the special plan value of SPEC §3.
  plan text not null default 'trial' check (plan in ('trial', 'solo', 'practice', 'Clinic')),
  pms text not null default 'none' check (pms in ('none', 'macpractice', 'opendental', 'dentrix', 'eaglesoft', 'other')),
  created_by uuid references auth.users (id) on delete set null,
  timezone text not null default 'UTC',
  region text not null default 'us',
  trial_ends_at timestamptz,
  settings jsonb not null default '{}'::jsonb check (jsonb_typeof(settings) = 'object'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- SPEC §1: one personal organisation per user; ensure_personal_org() relies on this index to be race-safe.
create unique index organizations_one_personal_per_user on public.organizations (created_by) where kind = 'personal';
create index organizations_created_by_idx on public.organizations (created_by);

create table public.org_members (
  org_id uuid not null references public.organizations (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  role text not null check (role in ('owner', 'admin', 'clinician', 'staff')),
  created_at timestamptz not null default now(),
  primary key (org_id, user_id)
);
create index org_members_user_id_idx on public.org_members (user_id);

create table public.invitations (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.organizations (id) on delete cascade,
  email text not null check (email ~ '^[^@\s]+@[^@\s]+$' and char_length(email) <= 320),
  role text not null check (role in ('owner', 'admin', 'clinician', 'staff')),
  -- Only a hash of the emailed token is stored.
  token_hash text not null unique,
  expires_at timestamptz not null default now() + interval '7 days',
  accepted_at timestamptz,
  accepted_by uuid references auth.users (id) on delete set null,
  revoked_at timestamptz,
  invited_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now()
);
create index invitations_org_id_email_idx on public.invitations (org_id, lower(email));

-- Append-only. No foreign key on org_id: the trail outlives a deleted organisation.
create table public.audit_log (
  id bigserial primary key,
  org_id uuid not null,
  actor_id uuid,
  action text not null,
  entity text,
  entity_id text,
  at timestamptz not null default now(),
  ip text,
  user_agent text,
  details jsonb not null default '{}'::jsonb
);
create index audit_log_org_id_at_idx on public.audit_log (org_id, at desc);

-- ---------------------------------------------------------------- privileges

-- Organisations are created through ensure_personal_org() / create_organization() only.
revoke insert on public.organizations from murmur_app;
revoke update, delete, truncate on public.audit_log from murmur_app;
grant select, insert on public.audit_log to murmur_app;

-- ---------------------------------------------------------------- policy helpers

create function app.is_member(org uuid) returns boolean
  language sql stable security definer
  set search_path = ''
as $$
  select exists (
    select 1 from public.org_members m
    where m.org_id = org and m.user_id = (select auth.uid())
  )
$$;

create function app.has_role(org uuid, roles text[]) returns boolean
  language sql stable security definer
  set search_path = ''
as $$
  select exists (
    select 1 from public.org_members m
    where m.org_id = org and m.user_id = (select auth.uid()) and m.role = any (roles)
  )
$$;

revoke execute on function app.is_member(uuid) from public;
revoke execute on function app.has_role(uuid, text[]) from public;
grant execute on function app.is_member(uuid) to murmur_app;
grant execute on function app.has_role(uuid, text[]) to murmur_app;

-- ---------------------------------------------------------------- row-level security

alter table public.organizations enable row level security;
alter table public.organizations force row level security;
alter table public.org_members enable row level security;
alter table public.org_members force row level security;
alter table public.invitations enable row level security;
alter table public.invitations force row level security;
alter table public.audit_log enable row level security;
alter table public.audit_log force row level security;

create policy organizations_select on public.organizations for select to murmur_app
  using ((select app.is_member(id)));
-- Plan changes are owner-only: organizations_guard() below.
create policy organizations_update on public.organizations for update to murmur_app
  using ((select app.has_role(id, array['owner', 'admin'])))
  with check ((select app.has_role(id, array['owner', 'admin'])));
create policy organizations_delete on public.organizations for delete to murmur_app
  using ((select app.has_role(id, array['owner'])));

-- Admins manage members but cannot create, promote to, demote or remove an owner.
create policy org_members_select on public.org_members for select to murmur_app
  using ((select app.is_member(org_id)));
create policy org_members_insert on public.org_members for insert to murmur_app
  with check (
    (select app.has_role(org_id, array['owner']))
    or (role <> 'owner' and (select app.has_role(org_id, array['admin'])))
  );
create policy org_members_update on public.org_members for update to murmur_app
  using (
    (select app.has_role(org_id, array['owner']))
    or (role <> 'owner' and (select app.has_role(org_id, array['admin'])))
  )
  with check (
    (select app.has_role(org_id, array['owner']))
    or (role <> 'owner' and (select app.has_role(org_id, array['admin'])))
  );
-- A user can leave an organisation (unless they are its last owner: org_members_keep_an_owner()).
create policy org_members_delete on public.org_members for delete to murmur_app
  using (
    user_id = (select auth.uid())
    or (select app.has_role(org_id, array['owner']))
    or (role <> 'owner' and (select app.has_role(org_id, array['admin'])))
  );

create policy invitations_all on public.invitations for all to murmur_app
  using ((select app.has_role(org_id, array['owner', 'admin'])))
  with check (
    (select app.has_role(org_id, array['owner']))
    or (role <> 'owner' and (select app.has_role(org_id, array['admin'])))
  );

create policy audit_log_select on public.audit_log for select to murmur_app
  using ((select app.has_role(org_id, array['owner', 'admin'])));
-- A member records their own actions; entries on behalf of nobody come from the owner connection.
create policy audit_log_insert on public.audit_log for insert to murmur_app
  with check ((select app.is_member(org_id)) and actor_id = (select auth.uid()));

-- ---------------------------------------------------------------- triggers

-- Runs as the caller: for murmur_app, a plan change needs the owner role, and kind / created_by
-- never change. The owner connection (billing webhooks, admin scripts) is not restricted.
create function app.organizations_guard() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  if current_user = 'murmur_app' then
    if new.plan is distinct from old.plan and not app.has_role(old.id, array['owner']) then
      raise exception 'only an owner can change the plan' using errcode = '42501';
    end if;
    if new.id <> old.id or new.kind <> old.kind or new.created_by is distinct from old.created_by then
      raise exception 'id, kind and created_by cannot change' using errcode = '42501';
    end if;
  end if;
  new.updated_at := now();
  return new;
end
$$;
revoke execute on function app.organizations_guard() from public;
create trigger organizations_guard before update on public.organizations
  for each row execute function app.organizations_guard();

-- The last owner cannot be removed or demoted. SECURITY DEFINER to count owners the caller's
-- policies might hide; the organisation row is locked so two concurrent demotions serialise.
-- Removal is allowed when the organisation or the user itself is being deleted (cascades).
create function app.org_members_keep_an_owner() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  if old.role <> 'owner' or (tg_op = 'UPDATE' and new.role = 'owner' and new.org_id = old.org_id) then
    return coalesce(new, old);
  end if;
  perform 1 from public.organizations o where o.id = old.org_id for update;
  if not found or not exists (select 1 from auth.users u where u.id = old.user_id) then
    return coalesce(new, old);
  end if;
  if not exists (
    select 1 from public.org_members m
    where m.org_id = old.org_id and m.role = 'owner' and m.user_id <> old.user_id
  ) then
    raise exception 'an organisation must keep at least one owner' using errcode = 'P0001', hint = 'last_owner';
  end if;
  return coalesce(new, old);
end
$$;
revoke execute on function app.org_members_keep_an_owner() from public;
create trigger org_members_keep_an_owner before update or delete on public.org_members
  for each row execute function app.org_members_keep_an_owner();

-- Append-only for everyone, the owner connection included.
create function app.audit_log_append_only() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  raise exception 'audit_log is append-only' using errcode = '42501';
end
$$;
revoke execute on function app.audit_log_append_only() from public;
create trigger audit_log_no_update_delete before update or delete on public.audit_log
  for each row execute function app.audit_log_append_only();
create trigger audit_log_no_truncate before truncate on public.audit_log
  for each statement execute function app.audit_log_append_only();

-- ---------------------------------------------------------------- creating organisations

-- A URL-safe slug from a name plus a short random suffix ("dr-ana-ruiz-s-practice-3f9a1c").
create function app.slugify(source text) returns text
  language sql volatile
  set search_path = ''
as $$
  select coalesce(
      nullif(btrim(left(btrim(regexp_replace(lower(source), '[^a-z0-9]+', '-', 'g'), '-'), 60), '-'), ''),
      'org')
    || '-' || substr(md5(random()::text || clock_timestamp()::text), 1, 6)
$$;
revoke execute on function app.slugify(text) from public;

-- SPEC §1 / §4: the caller's personal organisation, created on first call. Idempotent and safe
-- when several tabs call it at once: the partial unique index makes concurrent inserts wait and
-- then do nothing, and each statement of this VOLATILE function sees the winner's committed row.
-- The app passes the translated template ("Dr %s's practice", "Cabinet du Dr %s", ...); the SQL
-- stays language-neutral and substitutes the user's name with replace(), not format().
create function public.ensure_personal_org(name_template text default '%s''s practice') returns uuid
  language plpgsql volatile security definer
  set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  org uuid;
  display text;
  org_name text;
  template text := coalesce(nullif(btrim(name_template), ''), '%s''s practice');
begin
  if uid is null then
    raise exception 'not signed in' using errcode = '42501';
  end if;
  select coalesce(
           nullif(btrim(u.raw_user_meta_data ->> 'full_name'), ''),
           nullif(split_part(coalesce(u.email, ''), '@', 1), ''),
           nullif(u.phone, ''),
           left(u.id::text, 8))
    into display
    from auth.users u where u.id = uid;
  if not found then
    raise exception 'unknown user' using errcode = '42501';
  end if;
  if position('%s' in template) = 0 then
    template := template || ' %s';
  end if;
  org_name := left(replace(template, '%s', display), 200);
  for attempt in 1..5 loop
    select o.id into org from public.organizations o where o.created_by = uid and o.kind = 'personal';
    exit when found;
    insert into public.organizations (name, slug, kind, plan, created_by, trial_ends_at)
      values (org_name, app.slugify(org_name), 'personal', 'trial', uid,
              now() + interval '14 days')
      on conflict do nothing
      returning id into org;
    exit when org is not null;
    -- Lost a race (the loop re-reads the winner's row) or hit a slug collision (a new suffix).
  end loop;
  if org is null then
    raise exception 'could not create the personal organisation';
  end if;
  insert into public.org_members (org_id, user_id, role) values (org, uid, 'owner') on conflict do nothing;
  return org;
end
$$;
revoke execute on function public.ensure_personal_org(text) from public;
grant execute on function public.ensure_personal_org(text) to murmur_app;

-- POST /api/orgs: a practice organisation on a 14-day trial (issue 4 "Plans and trial"),
-- with the caller as its owner.
create function public.create_organization(org_name text) returns uuid
  language plpgsql volatile security definer
  set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  org uuid;
begin
  if uid is null or not exists (select 1 from auth.users u where u.id = uid) then
    raise exception 'not signed in' using errcode = '42501';
  end if;
  for attempt in 1..5 loop
    insert into public.organizations (name, slug, kind, plan, created_by, trial_ends_at)
      values (btrim(org_name), app.slugify(org_name), 'practice', 'trial', uid, now() + interval '14 days')
      on conflict (slug) do nothing
      returning id into org;
    exit when org is not null;
  end loop;
  if org is null then
    raise exception 'could not create the organisation';
  end if;
  insert into public.org_members (org_id, user_id, role) values (org, uid, 'owner');
  return org;
end
$$;
revoke execute on function public.create_organization(text) from public;
grant execute on function public.create_organization(text) to murmur_app;
