-- Ask Murmur, part two (issue 12): coding cases join the records index, and passages may carry
-- an embedding for dense retrieval (ADR 0020).
--
-- Cases: one index row per accepted code of a case (its code system, code and description), with
-- the case's status in `label`. Like 0017, SECURITY DEFINER triggers keep the rows current in the
-- writer's transaction, whatever the write path: a case opened or reopened, a line accepted,
-- rejected, edited or added, the case coded or exported. A deleted visit takes the rows by the
-- visit foreign key; a deleted case (its draft note deleted) by the trigger below. The index rows
-- of a case are read by owners, clinicians and staff (0017's policy): the same people who read
-- cases on the coding page (docs/permissions.md "Clinical coding"), admins excepted as they read no
-- clinical record here.
--
-- Embeddings: `real[]` so the table exists on every PostgreSQL and on PGlite. Where the `vector`
-- extension is installed (pgvector), a `vec` column is added and kept equal to `embedding`, and
-- the ranking uses pgvector's distance on it; elsewhere the ranking computes the cosine in SQL
-- (app.rag_cosine), fine for a patient's records, slower organisation-wide. Only the background
-- job (connected as the owner) writes the table; murmur_app reads what 0017's policy lets it read.

-- ---------------------------------------------------------------- cases in the index

create function app.rag_reindex_case(p_org uuid, p_case uuid) returns void
  language plpgsql security definer
  set search_path = ''
as $$
begin
  delete from public.record_chunks
    where org_id = p_org and source_table = 'cases' and source_id = p_case;
  insert into public.record_chunks
    (org_id, visit_id, patient_id, record_type, source_table, source_id, field, label, position,
     language, visit_date, text)
  select c.org_id, c.visit_id, c.patient_id, 'case', 'cases', c.id, l.kind, c.status,
         (row_number() over (order by l.position, l.code) - 1)::int,
         -- Code descriptions are the code tables' English titles, whatever the visit's language.
         'en', v.visit_date,
         left(case l.system when 'icd10cm' then 'ICD-10-CM' when 'hcpcs' then 'HCPCS' else upper(l.system) end
              || ' ' || l.code || ': ' || l.description, 20000)
    from public.coding_cases c
    join public.visits v on v.org_id = c.org_id and v.id = c.visit_id
    join public.coding_lines l on l.org_id = c.org_id and l.case_id = c.id
   where c.org_id = p_org and c.id = p_case and l.state = 'accepted';
end
$$;
revoke execute on function app.rag_reindex_case(uuid, uuid) from public;

create function app.rag_index_case() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  if tg_op = 'DELETE' then
    delete from public.record_chunks
      where org_id = old.org_id and source_table = 'cases' and source_id = old.id;
    return null;
  end if;
  perform app.rag_reindex_case(new.org_id, new.id);
  return null;
end
$$;
revoke execute on function app.rag_index_case() from public;
create trigger coding_cases_rag_index_insert after insert on public.coding_cases
  for each row execute function app.rag_index_case();
create trigger coding_cases_rag_index_update after update on public.coding_cases
  for each row when (old.status is distinct from new.status) execute function app.rag_index_case();
create trigger coding_cases_rag_index_delete after delete on public.coding_cases
  for each row execute function app.rag_index_case();

create function app.rag_index_case_line() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  if tg_op = 'DELETE' then
    perform app.rag_reindex_case(old.org_id, old.case_id);
  else
    perform app.rag_reindex_case(new.org_id, new.case_id);
  end if;
  return null;
end
$$;
revoke execute on function app.rag_index_case_line() from public;
create trigger coding_lines_rag_index_insert after insert on public.coding_lines
  for each row when (new.state = 'accepted') execute function app.rag_index_case_line();
create trigger coding_lines_rag_index_update after update on public.coding_lines
  for each row when (old.state is distinct from new.state or old.code is distinct from new.code
                     or old.description is distinct from new.description or old.position is distinct from new.position
                     or old.kind is distinct from new.kind)
  execute function app.rag_index_case_line();
create trigger coding_lines_rag_index_delete after delete on public.coding_lines
  for each row when (old.state = 'accepted') execute function app.rag_index_case_line();

-- Cases coded before this migration.
select app.rag_reindex_case(c.org_id, c.id) from public.coding_cases c;

-- ---------------------------------------------------------------- embeddings

create table public.record_embeddings (
  chunk_id uuid primary key references public.record_chunks (id) on delete cascade,
  org_id uuid not null,
  -- Copied from the passage so the policy below reads like 0017's without a join.
  record_type text not null check (record_type in ('transcription', 'doctor_note', 'case')),
  model text not null check (char_length(model) between 1 and 200),
  dims integer not null check (dims between 1 and 4096),
  embedding real[] not null check (cardinality(embedding) = dims),
  created_at timestamptz not null default now()
);
create index record_embeddings_org_model_idx on public.record_embeddings (org_id, model);

revoke insert, update, delete, truncate on public.record_embeddings from murmur_app;
alter table public.record_embeddings enable row level security;
alter table public.record_embeddings force row level security;
create policy record_embeddings_select on public.record_embeddings for select to murmur_app
  using (
    org_id = (select app.current_org_id())
    and case when record_type = 'doctor_note'
      then (select app.has_role((select app.current_org_id()), array['owner', 'clinician']))
      else (select app.has_role((select app.current_org_id()), array['owner', 'clinician', 'staff'])) end
  );

-- Cosine similarity of two vectors of the same length; null when either is all zeros.
create function app.rag_cosine(a real[], b real[]) returns float8
  language sql immutable parallel safe
  set search_path = ''
as $$
  select sum(x::float8 * y::float8) / nullif(sqrt(sum(x::float8 * x::float8)) * sqrt(sum(y::float8 * y::float8)), 0)
    from unnest(a, b) as t(x, y)
$$;
grant execute on function app.rag_cosine(real[], real[]) to murmur_app;

-- The re-embedding job's progress per organisation (issue 12: resumable, with progress). The job
-- itself resumes from what is missing; this row is what owners read.
create table public.rag_embedding_runs (
  org_id uuid primary key references public.organizations (id) on delete cascade,
  model text not null check (char_length(model) between 1 and 200),
  state text not null check (state in ('queued', 'running', 'done', 'failed')),
  done integer not null default 0 check (done >= 0),
  total integer not null default 0 check (total >= 0),
  error text check (char_length(error) <= 500),
  started_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
revoke insert, update, delete, truncate on public.rag_embedding_runs from murmur_app;
alter table public.rag_embedding_runs enable row level security;
alter table public.rag_embedding_runs force row level security;
create policy rag_embedding_runs_select on public.rag_embedding_runs for select to murmur_app
  using ((select app.has_role(org_id, array['owner'])));

-- pgvector where the server has it (Debian: the postgresql-NN-pgvector package; PGlite: opened
-- with its vector extension). Checked here so the same file runs everywhere.
do $$
begin
  -- Created by us only as a superuser (pgvector is not a trusted extension); a server where an
  -- administrator already ran CREATE EXTENSION vector needs no privilege here.
  if exists (select 1 from pg_catalog.pg_extension where extname = 'vector')
     or (exists (select 1 from pg_catalog.pg_available_extensions where name = 'vector')
         and (select r.rolsuper from pg_catalog.pg_roles r where r.rolname = current_user)) then
    create extension if not exists vector;
    alter table public.record_embeddings add column vec public.vector;
    create function app.rag_embedding_vec() returns trigger
      language plpgsql
      set search_path = ''
    as $f$
    begin
      new.vec := new.embedding::public.vector;
      return new;
    end
    $f$;
    create trigger record_embeddings_vec before insert or update of embedding on public.record_embeddings
      for each row execute function app.rag_embedding_vec();
  end if;
end
$$;
