-- Accepting an invitation and reading the member directory (issue 4 "Roles, members, invitations").
--
-- The invitee is not a member yet, so row-level security hides the invitation from them and
-- forbids their own membership insert: accept_invitation() does both as the migration owner,
-- after checking the token hash, the invitation's state and that the caller's auth email matches.
-- Each refusal raises P0001 with a stable hint the service maps to an API code.

create function public.accept_invitation(token_hash text)
  returns table (org_id uuid, role text)
  language plpgsql volatile security definer
  set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  caller_email text;
  inv public.invitations%rowtype;
  member_role text;
begin
  if uid is null then
    raise exception 'not signed in' using errcode = '42501';
  end if;
  select u.email into caller_email from auth.users u where u.id = uid;
  if not found then
    raise exception 'not signed in' using errcode = '42501';
  end if;
  -- Locked so two concurrent accepts of one token serialise: the second sees accepted_at.
  select i.* into inv from public.invitations i where i.token_hash = accept_invitation.token_hash for update;
  if not found then
    raise exception 'invitation not found' using errcode = 'P0001', hint = 'invitation_invalid';
  end if;
  if inv.accepted_at is not null then
    raise exception 'invitation already used' using errcode = 'P0001', hint = 'invitation_used';
  end if;
  if inv.revoked_at is not null then
    raise exception 'invitation revoked' using errcode = 'P0001', hint = 'invitation_revoked';
  end if;
  if inv.expires_at <= now() then
    raise exception 'invitation expired' using errcode = 'P0001', hint = 'invitation_expired';
  end if;
  if caller_email is null or lower(btrim(caller_email)) <> lower(btrim(inv.email)) then
    raise exception 'invitation is for another email address' using errcode = 'P0001', hint = 'invitation_email_mismatch';
  end if;
  -- Someone who is already a member keeps their role: an invitation never demotes.
  insert into public.org_members as m (org_id, user_id, role) values (inv.org_id, uid, inv.role)
    on conflict on constraint org_members_pkey do nothing;
  select m.role into member_role from public.org_members m where m.org_id = inv.org_id and m.user_id = uid;
  update public.invitations i set accepted_at = now(), accepted_by = uid where i.id = inv.id;
  org_id := inv.org_id;
  role := member_role;
  return next;
end
$$;
revoke execute on function public.accept_invitation(text) from public;
grant execute on function public.accept_invitation(text) to murmur_app;

-- GET /api/orgs/:id/members: members' emails and names live in auth.users, which murmur_app
-- cannot read. Only a member of `org` gets rows, and only for that organisation's members.
create function public.org_member_directory(org uuid)
  returns table (user_id uuid, email text, full_name text, role text, joined_at timestamptz)
  language sql stable security definer
  set search_path = ''
as $$
  select m.user_id, u.email, nullif(btrim(u.raw_user_meta_data ->> 'full_name'), ''), m.role, m.created_at
  from public.org_members m
  join auth.users u on u.id = m.user_id
  where m.org_id = org and app.is_member(org)
  order by m.created_at, m.user_id
$$;
revoke execute on function public.org_member_directory(uuid) from public;
grant execute on function public.org_member_directory(uuid) to murmur_app;
