-- The embedded auth service's data, shaped like Supabase's `auth` schema so row-level-security
-- policies written with auth.uid() / auth.jwt() work unchanged against a hosted Supabase project.
-- Only the auth service (owner connection) reads these tables; murmur_app gets the helper functions.
create schema if not exists auth;
revoke all on schema auth from public;
grant usage on schema auth to murmur_app;

create table auth.users (
  id uuid primary key default gen_random_uuid(),
  aud text not null default 'authenticated',
  role text not null default 'authenticated',
  email text,
  encrypted_password text,
  email_confirmed_at timestamptz,
  phone text,
  phone_confirmed_at timestamptz,
  invited_at timestamptz,
  confirmation_sent_at timestamptz,
  recovery_sent_at timestamptz,
  email_change text,
  email_change_sent_at timestamptz,
  reauthentication_sent_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb not null default '{}'::jsonb,
  raw_user_meta_data jsonb not null default '{}'::jsonb,
  is_anonymous boolean not null default false,
  banned_until timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index users_email_key on auth.users (lower(email)) where email is not null;
create unique index users_phone_key on auth.users (phone) where phone is not null;

create table auth.identities (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  provider text not null,
  provider_id text not null,
  identity_data jsonb not null default '{}'::jsonb,
  last_sign_in_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (provider, provider_id)
);
create index identities_user_id_idx on auth.identities (user_id);

create table auth.sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  aal text not null default 'aal1' check (aal in ('aal1', 'aal2')),
  factor_id uuid,
  amr jsonb not null default '[]'::jsonb,
  user_agent text,
  ip text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  refreshed_at timestamptz,
  not_after timestamptz
);
create index sessions_user_id_idx on auth.sessions (user_id);

-- Only a hash of each refresh token is stored; `revoked` marks rotated ones so reuse is detected.
create table auth.refresh_tokens (
  id bigserial primary key,
  token_hash text not null unique,
  session_id uuid not null references auth.sessions (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  parent_hash text,
  revoked boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index refresh_tokens_session_id_idx on auth.refresh_tokens (session_id);

create table auth.mfa_factors (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  friendly_name text,
  factor_type text not null check (factor_type in ('totp', 'phone')),
  status text not null default 'unverified' check (status in ('unverified', 'verified')),
  secret text,
  phone text,
  last_used_step bigint,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index mfa_factors_user_id_idx on auth.mfa_factors (user_id);
create unique index mfa_factors_user_friendly_name_key on auth.mfa_factors (user_id, friendly_name)
  where friendly_name is not null and friendly_name <> '';

create table auth.mfa_challenges (
  id uuid primary key default gen_random_uuid(),
  factor_id uuid not null references auth.mfa_factors (id) on delete cascade,
  ip text,
  otp_code_hash text,
  created_at timestamptz not null default now(),
  verified_at timestamptz
);
create index mfa_challenges_factor_id_idx on auth.mfa_challenges (factor_id);

-- Email links and codes: single use, expiring, stored as hashes.
create table auth.one_time_tokens (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  token_type text not null check (token_type in (
    'confirmation', 'recovery', 'invite', 'magiclink', 'email_change', 'reauthentication', 'phone_change')),
  token_hash text not null unique,
  otp_hash text,
  relates_to text not null,
  redirect_to text,
  code_challenge text,
  code_challenge_method text,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index one_time_tokens_user_id_idx on auth.one_time_tokens (user_id);

-- PKCE: an authorization code waiting to be exchanged with its verifier.
create table auth.flow_state (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  auth_code_hash text not null unique,
  code_challenge text not null,
  code_challenge_method text not null check (code_challenge_method in ('s256', 'plain')),
  authentication_method text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index flow_state_user_id_idx on auth.flow_state (user_id);

create table auth.audit_log_entries (
  id uuid primary key default gen_random_uuid(),
  actor_id uuid,
  action text not null,
  payload jsonb not null default '{}'::jsonb,
  ip text,
  created_at timestamptz not null default now()
);
create index audit_log_entries_created_at_idx on auth.audit_log_entries (created_at);

-- Signing keys and API keys, generated on first start.
create table auth.keys (
  kid text primary key,
  algorithm text not null,
  private_jwk jsonb not null,
  public_jwk jsonb not null,
  active boolean not null default true,
  created_at timestamptz not null default now()
);

create table auth.config (
  key text primary key,
  value text not null,
  created_at timestamptz not null default now()
);

-- Fixed-window counters shared by every instance and kept across restarts.
create table auth.rate_limits (
  bucket text not null,
  window_start timestamptz not null,
  hits integer not null default 0,
  primary key (bucket, window_start)
);

-- Email and SMS waiting to be delivered (or read from the dev mailbox).
create table auth.outbox (
  id uuid primary key default gen_random_uuid(),
  channel text not null check (channel in ('email', 'sms')),
  recipient text not null,
  template text not null,
  locale text not null,
  subject text,
  text_body text not null,
  html_body text,
  status text not null default 'pending' check (status in ('pending', 'sent', 'failed', 'kept')),
  attempts integer not null default 0,
  last_error text,
  created_at timestamptz not null default now(),
  sent_at timestamptz
);
create index outbox_status_idx on auth.outbox (status, created_at);

-- Supabase-compatible helpers for policies.
create or replace function auth.jwt() returns jsonb
  language sql stable
  set search_path = ''
as $$
  select coalesce(nullif(current_setting('request.jwt.claims', true), '')::jsonb, '{}'::jsonb)
$$;

create or replace function auth.uid() returns uuid
  language sql stable
  set search_path = ''
as $$
  select nullif(auth.jwt() ->> 'sub', '')::uuid
$$;

create or replace function auth.role() returns text
  language sql stable
  set search_path = ''
as $$
  select nullif(auth.jwt() ->> 'role', '')
$$;

grant execute on function auth.jwt(), auth.uid(), auth.role() to murmur_app;
