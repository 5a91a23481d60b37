-- Issue 28 "order of authority": every passage of the records index carries how much it counts
-- when sources disagree — a signed or amended note (4) > a draft section the clinician edited (3)
-- > a generated draft section (2) > the transcript (1) > a coding case (0). The ranking and the
-- answer engines read `authority`; the note trigger marks a draft section `edited` when its text
-- is no longer what the engine wrote (notes.sections) — a section the clinician typed into, or
-- one the engine never wrote. Still written only by the triggers, in the writer's transaction,
-- so an edit, a signature or an amendment is searchable the moment it commits.

alter table public.record_chunks add column edited boolean not null default false;
alter table public.record_chunks add column authority smallint not null generated always as (
  case
    when record_type = 'case' then 0
    when record_type = 'transcription' then 1
    when note_status in ('signed', 'amended') then 4
    when edited then 3
    else 2
  end) stored;

create or replace function app.rag_index_note() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
declare
  v record;
begin
  delete from public.record_chunks where note_id = new.id;
  if new.status not in ('draft', 'signed', 'amended') then
    return null;
  end if;
  select id, patient_id, visit_date into v from public.visits where org_id = new.org_id and id = new.visit_id;
  insert into public.record_chunks
    (org_id, visit_id, patient_id, record_type, source_table, source_id, note_id, field, label,
     note_status, position, language, visit_date, text, edited)
  select new.org_id, new.visit_id, new.patient_id, 'doctor_note', 'doctor_notes', new.id, new.id,
         left(coalesce(nullif(sec.s ->> 'key', ''), 'section'), 100), left(coalesce(sec.s ->> 'title', ''), 200),
         new.status, (row_number() over (order by sec.n, sen.n) - 1)::int,
         new.language, v.visit_date, left(btrim(sen.t), 20000),
         -- Edited: the engine's text of this section (by key) differs, or the engine wrote none.
         not exists (select 1 from jsonb_array_elements(new.sections) g
                     where g ->> 'key' = sec.s ->> 'key' and g ->> 'text' = sec.s ->> 'text')
  from jsonb_array_elements(new.content) with ordinality as sec(s, n)
  cross join lateral (
    select x.value ->> 'text' as t, x.n
      from jsonb_array_elements(case when jsonb_typeof(sec.s -> 'sentences') = 'array'
                                     then sec.s -> 'sentences' else '[]'::jsonb end) with ordinality as x(value, n)
    union all
    select m.part[1], m.n
      -- A full stop between digits ("Flomax 0.4 mg") does not end a sentence.
      from regexp_matches(coalesce(sec.s ->> 'text', ''), '((?:[^.!?\n]|\.(?=[0-9]))+[.!?]*)', 'g') with ordinality as m(part, n)
      where jsonb_typeof(sec.s -> 'sentences') is distinct from 'array'
         or jsonb_array_length(sec.s -> 'sentences') = 0
  ) sen
  where char_length(btrim(coalesce(sen.t, ''))) > 1
    and btrim(regexp_replace(sen.t, '^\s*[-•*]\s+', '')) <> '';
  return null;
end
$$;
revoke execute on function app.rag_index_note() from public;

-- Notes indexed before this migration: mark their edited sections the same way.
update public.record_chunks c set edited = true
from public.notes n, jsonb_array_elements(n.content) s
where c.note_id = n.id and c.field = coalesce(nullif(s ->> 'key', ''), 'section')
  and not exists (select 1 from jsonb_array_elements(n.sections) g
                  where g ->> 'key' = s ->> 'key' and g ->> 'text' = s ->> 'text');
