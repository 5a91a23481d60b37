-- Billing provider bookkeeping (issue 4 "Plans and trial"). One row per provider object Murmur has
-- acted on, keyed by the provider's own id, so a webhook delivered twice, or a checkout applied
-- both by the browser's return and by its webhook, changes the plan once:
--   ('stripe', 'evt_…')  a webhook event that was processed;
--   ('stripe', 'cs_…')   a paid Checkout Session whose plan was applied.
-- Webhooks have no signed-in user: they write through the owner connection (see the
-- organizations_guard comment in 0003). A return from checkout writes as the owner under RLS.

create table public.billing_events (
  provider text not null check (provider in ('stripe')),
  external_id text not null check (char_length(external_id) between 1 and 255),
  org_id uuid not null references public.organizations (id) on delete cascade,
  type text not null check (char_length(type) between 1 and 100),
  received_at timestamptz not null default now(),
  details jsonb not null default '{}'::jsonb check (jsonb_typeof(details) = 'object'),
  primary key (provider, external_id)
);
create index billing_events_org_id_idx on public.billing_events (org_id, received_at desc);

-- A record of what happened: never rewritten by the app.
revoke update, delete, truncate on public.billing_events from murmur_app;

alter table public.billing_events enable row level security;
alter table public.billing_events force row level security;

create policy billing_events_select on public.billing_events for select to murmur_app
  using ((select app.has_role(org_id, array['owner', 'admin'])));
-- Only an owner changes the plan (docs/permissions.md), so only an owner records a checkout return.
create policy billing_events_insert on public.billing_events for insert to murmur_app
  with check ((select app.has_role(org_id, array['owner'])));
