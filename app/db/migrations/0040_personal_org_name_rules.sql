-- Issue 25: the personal organisation's name follows the rules every other organisation name
-- follows (api-orgs.ts: one line, no control characters, at most 200 characters). Its source is the
-- user's own metadata (full_name), which the auth API stores as sent: control characters, line
-- breaks and separators become single spaces here, and the name is cut to 150 characters before
-- the template adds its words. Otherwise the function is migration 0032's.
create or replace function public.ensure_personal_org(name_template text, title_templates jsonb) returns uuid
  language plpgsql volatile security definer
  set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  org uuid;
  display text;
  org_name text;
  template text := coalesce(nullif(btrim(name_template), ''), '%s''s practice');
  titles jsonb := coalesce(title_templates, '{}'::jsonb);
  parts text[];
  title_kind text;
  rest text;
  given text;
  feminine boolean := false;
begin
  if uid is null then
    raise exception 'not signed in' using errcode = '42501';
  end if;
  select coalesce(
           nullif(btrim(regexp_replace(u.raw_user_meta_data ->> 'full_name',
                                       '[[:space:]\u0001-\u001f\u007f-\u009f\u2028\u2029]+', ' ', 'g')), ''),
           nullif(split_part(coalesce(u.email, ''), '@', 1), ''),
           nullif(u.phone, ''),
           left(u.id::text, 8))
    into display
    from auth.users u where u.id = uid;
  if not found then
    raise exception 'unknown user' using errcode = '42501';
  end if;
  -- Room for the template's words within the 200 characters of every organisation name.
  display := left(display, 150);
  parts := regexp_match(display,
    '^\s*(dr|dra|dre|doctor|doctora|docteur|docteure|pr|prof|professor|professeur|professeure|profesor|profesora)\.?\s+(\S.*)$', 'i');
  if jsonb_typeof(titles -> 'feminine_given') = 'array' then
    given := lower(substring(coalesce(btrim(parts[2]), btrim(display)) from '^([^\s,.]+)'));
    feminine := given is not null and (
      titles -> 'feminine_given' ? given
      or (given like '%a' and length(given) > 1
          and not coalesce(titles -> 'masculine_given_in_a' ? given, false)));
  end if;
  if parts is not null then
    rest := btrim(parts[2]);
    title_kind := case
      when lower(parts[1]) in ('dr', 'doctor', 'docteur') then 'dr'
      when lower(parts[1]) in ('dra', 'dre', 'doctora', 'docteure') then 'dr_f'
      when lower(parts[1]) in ('professeure', 'profesora') then 'pr_f'
      else 'pr'
    end;
    if feminine and title_kind = 'pr' and lower(parts[1]) in ('pr', 'prof', 'professor') then
      title_kind := 'pr_f';
    end if;
    if title_kind = 'dr' and not feminine then
      template := coalesce(nullif(btrim(titles ->> 'dr'), ''), template);
      display := rest;
    elsif title_kind in ('dr', 'dr_f') then
      template := coalesce(nullif(btrim(titles ->> 'dr_f'), ''), nullif(btrim(titles ->> 'dr'), ''), template);
      display := rest;
    elsif coalesce(nullif(btrim(titles ->> title_kind), ''), nullif(btrim(titles ->> 'pr'), '')) is not null then
      template := coalesce(nullif(btrim(titles ->> title_kind), ''), nullif(btrim(titles ->> 'pr'), ''));
      display := rest;
    else
      -- A title we cannot translate: the name as typed, in the untitled template.
      template := coalesce(nullif(btrim(titles ->> 'untitled'), ''), '%s''s practice');
    end if;
  elsif feminine and nullif(btrim(titles ->> 'dr_f'), '') is not null then
    -- No title typed: the default template names a doctor, so a feminine given name gets "Dra.".
    template := btrim(titles ->> 'dr_f');
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
