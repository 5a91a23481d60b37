-- 0007's app.clinical_row_guard() read new.consent_at in the same expression as the
-- tg_table_name test, and PL/pgSQL resolves every field of that expression: any UPDATE of a
-- patient failed with 'record "new" has no field "consent_at"'. The visits-only check now sits in
-- its own IF, so it is only evaluated for visits.

create or replace function app.clinical_row_guard() returns trigger
  language plpgsql
  set search_path = ''
as $$
begin
  if new.id <> old.id or new.org_id <> old.org_id then
    raise exception 'id and org_id cannot change' using errcode = '42501';
  end if;
  if tg_table_name = 'visits' then
    if new.consent_at is distinct from old.consent_at
       or new.consent_by is distinct from old.consent_by
       or new.created_by is distinct from old.created_by then
      raise exception 'the consent record cannot change' using errcode = '42501';
    end if;
  end if;
  new.updated_at := now();
  return new;
end
$$;
revoke execute on function app.clinical_row_guard() from public;
