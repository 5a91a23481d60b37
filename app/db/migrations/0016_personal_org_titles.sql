-- Issue 11: the personal organisation is named from the user's name without doubling a title.
-- A user who typed "Dr Ana Ruiz" got "Dr Dr Ana Ruiz's practice": the translated template adds
-- "Dr" and the name already had it. The name's own leading title is now read and the template
-- for that title used: `title_templates` maps a kind of title to a template with %s for the name
-- without its title: dr ("Dr", "Doctor", "Docteur"), dr_f ("Dra", "Dre", "Doctora", "Docteure"),
-- pr ("Pr", "Prof", "Professor", "Professeur", "Profesor"), pr_f ("Professeure", "Profesora"),
-- and untitled (a name shown as typed, for a title we have no template for). Without a title in
-- the name, name_template applies as before. The SQL stays language-neutral: the app passes the
-- templates of the user's language (locales/*/app.json "orgs").
create function public.ensure_personal_org(name_template text, title_templates jsonb) returns uuid
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
  parts := regexp_match(display,
    '^\s*(dr|dra|dre|doctor|doctora|docteur|docteure|pr|prof|professor|professeur|professeure|profesor|profesora)\.?\s+(\S.*)$', 'i');
  if parts is not null then
    rest := btrim(parts[2]);
    title_kind := case
      when lower(parts[1]) in ('dr', 'doctor', 'docteur') then 'dr'
      when lower(parts[1]) in ('dra', 'dre', 'doctora', 'docteure') then 'dr_f'
      when lower(parts[1]) in ('professeure', 'profesora') then 'pr_f'
      else 'pr'
    end;
    if title_kind = 'dr' then
      template := coalesce(nullif(btrim(titles ->> 'dr'), ''), template);
      display := rest;
    elsif title_kind = 'dr_f' then
      template := coalesce(nullif(btrim(titles ->> 'dr_f'), ''), nullif(btrim(titles ->> 'dr'), ''), template);
      display := rest;
    elsif coalesce(nullif(btrim(titles ->> title_kind), ''), nullif(btrim(titles ->> 'pr'), '')) is not null then
      template := coalesce(nullif(btrim(titles ->> title_kind), ''), nullif(btrim(titles ->> 'pr'), ''));
      display := rest;
    else
      -- A title we cannot translate: the name as typed, in the untitled template.
      template := coalesce(nullif(btrim(titles ->> 'untitled'), ''), '%s''s practice');
    end if;
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
revoke execute on function public.ensure_personal_org(text, jsonb) from public;
grant execute on function public.ensure_personal_org(text, jsonb) to murmur_app;

-- The one-argument form keeps working (API clients, older callers) with the same title rule.
create or replace function public.ensure_personal_org(name_template text default '%s''s practice') returns uuid
  language sql volatile security definer
  set search_path = ''
as $$
  select public.ensure_personal_org(name_template, '{}'::jsonb)
$$;

-- Personal organisations already named with a doubled title, and never renamed since, lose the
-- repeat ("Dr Dr Ana Ruiz's practice" → "Dr Ana Ruiz's practice").
update public.organizations
   set name = regexp_replace(name, '\m(Dr\.?) Dr\.? ', '\1 ')
 where kind = 'personal' and name ~ '\mDr\.? Dr\.? ';
