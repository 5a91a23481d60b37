-- The application's queries run as murmur_app: not a superuser, not a table owner, no BYPASSRLS,
-- so every row-level-security policy applies to it (see app/db/actor.server.ts).
do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'murmur_app') then
    create role murmur_app nologin nosuperuser nobypassrls noinherit;
  end if;
end
$$;

-- The connecting (owner) role must be able to SET ROLE murmur_app inside a transaction.
do $$
begin
  execute format('grant murmur_app to %I', current_user);
exception when others then
  -- already a member, or a managed server where an administrator granted it
  null;
end
$$;

create schema if not exists app;
revoke all on schema app from public;
grant usage on schema app to murmur_app;
grant usage on schema public to murmur_app;

-- Who is acting, as set by withActor for the current transaction only. The claims use
-- Supabase's setting name so auth.uid()-style policies read the same value in both auth modes.
create or replace function app.current_user_id() returns uuid
  language sql stable
  set search_path = ''
as $$
  select nullif(nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub', '')::uuid
$$;

create or replace function app.current_org_id() returns uuid
  language sql stable
  set search_path = ''
as $$
  select nullif(current_setting('murmur.org_id', true), '')::uuid
$$;

grant execute on function app.current_user_id() to murmur_app;
grant execute on function app.current_org_id() to murmur_app;

-- Tables created later by the owner are usable by murmur_app; their policies decide which rows.
alter default privileges in schema public grant select, insert, update, delete on tables to murmur_app;
alter default privileges in schema public grant usage, select on sequences to murmur_app;
