-- invitation_preview() also answers the inviting organisation's time zone: the invitation email
-- and /accept-invite print the expiry on the organisation's clock, as Settings → Invitations does
-- (rule: the organisation's time zone for everything a user reads). The invitee holding the token
-- already sees the organisation's name; its time zone reveals nothing more about anyone.
-- The result's shape changes, so the function is dropped and created again (same body otherwise).

drop function public.invitation_preview(text);

create function public.invitation_preview(token_hash text)
  returns table (
    org_name text,
    org_timezone text,
    inviter_name text,
    inviter_email text,
    email text,
    role text,
    state text,
    expires_at timestamptz
  )
  language sql stable security definer
  set search_path = ''
as $$
  select o.name,
         o.timezone,
         nullif(btrim(u.raw_user_meta_data ->> 'full_name'), ''),
         u.email,
         i.email,
         i.role,
         case
           when i.accepted_at is not null then 'used'
           when i.revoked_at is not null then 'revoked'
           when i.expires_at <= now() then 'expired'
           else 'pending'
         end,
         i.expires_at
  from public.invitations i
  join public.organizations o on o.id = i.org_id
  left join auth.users u on u.id = i.invited_by
  where i.token_hash = invitation_preview.token_hash
$$;
revoke execute on function public.invitation_preview(text) from public;
grant execute on function public.invitation_preview(text) to murmur_app;
