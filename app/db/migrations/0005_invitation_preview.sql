-- What /accept-invite and the invitation email show about an invitation (issue 4 "Roles, members,
-- invitations": the page "shows organisation and inviter").
--
-- The visitor is not a member yet (often not even signed in), so row-level security hides the
-- invitation, its organisation and the inviter from them. Holding the raw token is the proof of
-- being invited: only its SHA-256 is stored, so a caller that knows the hash got it from the
-- emailed link. The function answers for that one invitation and reveals nothing else (no ids).
-- The state follows accept_invitation()'s order of checks: used, revoked, expired, pending.

create function public.invitation_preview(token_hash text)
  returns table (
    org_name text,
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
