-- Dense retrieval on pgvector with an index (issue 12, ADR 0027).
--
-- 0026 added the `vec vector` column only where `vector` was available when it ran, and until
-- now no database here had it: PGlite now opens with @electric-sql/pglite-pgvector
-- (app/db/pglite.server.ts), and server PostgreSQL has it once the postgresql-NN-pgvector package
-- is installed and created. app.rag_enable_pgvector adds the column (and 0026's trigger) where it
-- is missing and fills it from `embedding`; this file runs it once, and so does
-- app.rag_ensure_vector_index, which the re-embedding job calls with the model's dimension count:
-- a server that gets pgvector after this migration switches over at its next re-embedding run.
--
-- Why one partial index per dimension count: HNSW needs a fixed dimension, and the column holds
-- whatever the configured model returns (EMBEDDINGS_DIMENSIONS is optional). pgvector's documented
-- answer is an expression index on `vec::vector(N)` restricted to `dims = N`; the dense ranking
-- (app/services/rag/dense.server.ts) orders by that same expression. HNSW takes at most 2,000
-- dimensions: larger models are ranked by an exact scan on `vec`.
--
-- Without `vector` only the functions are created, and they answer false: the ranking keeps
-- app.rag_cosine over real[] (0026).

-- True when `vec` is there (made now if needed); false where pgvector is not installed, or is
-- installed but not created and we may not create it (it is not a trusted extension: a superuser
-- runs CREATE EXTENSION vector; then this succeeds).
create function app.rag_enable_pgvector() returns boolean
  language plpgsql
  set search_path = ''
as $$
begin
  if not exists (select 1 from pg_catalog.pg_extension where extname = 'vector') then
    if not exists (select 1 from pg_catalog.pg_available_extensions where name = 'vector')
       or not (select r.rolsuper from pg_catalog.pg_roles r where r.rolname = current_user) then
      return false;
    end if;
    create extension vector with schema public;
  end if;
  if exists (select 1 from pg_catalog.pg_attribute
             where attrelid = 'public.record_embeddings'::regclass and attname = 'vec' and not attisdropped) then
    return true;
  end if;
  alter table public.record_embeddings add column vec public.vector;
  create or replace function app.rag_embedding_vec() returns trigger
    language plpgsql
    set search_path = ''
  as $f$
  begin
    new.vec := new.embedding::public.vector;
    return new;
  end
  $f$;
  drop trigger if exists record_embeddings_vec on public.record_embeddings;
  create trigger record_embeddings_vec before insert or update of embedding on public.record_embeddings
    for each row execute function app.rag_embedding_vec();
  update public.record_embeddings set vec = embedding::public.vector;
  return true;
end
$$;
revoke execute on function app.rag_enable_pgvector() from public;

select app.rag_enable_pgvector();

-- Creates the HNSW index for vectors of `p_dims` dimensions if it is missing; false where there
-- is nothing to index (no pgvector, a pgvector without HNSW, or more dimensions than HNSW takes).
-- Owner-only: the job runs as the owner, and an index build locks the table against writes while
-- it runs.
create function app.rag_ensure_vector_index(p_dims integer) returns boolean
  language plpgsql
  set search_path = ''
as $$
declare
  index_name text := 'record_embeddings_vec_' || p_dims || '_idx';
begin
  if p_dims is null or p_dims < 1 or p_dims > 2000 or not app.rag_enable_pgvector() then
    return false;
  end if;
  -- HNSW came with pgvector 0.5: an older server extension ranks by an exact scan on `vec`.
  if not exists (select 1 from pg_catalog.pg_am where amname = 'hnsw') then
    return false;
  end if;
  -- Checked first: CREATE INDEX IF NOT EXISTS would still take the table's lock to find out.
  if not exists (select 1 from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
                 where n.nspname = 'public' and c.relname = index_name) then
    execute format(
      'create index %I on public.record_embeddings using hnsw ((vec::public.vector(%s)) public.vector_cosine_ops) where dims = %s',
      index_name, p_dims, p_dims);
  end if;
  return true;
end
$$;
revoke execute on function app.rag_ensure_vector_index(integer) from public;

-- Models already embedded before this migration get their index now.
select app.rag_ensure_vector_index(d.dims) from (select distinct dims from public.record_embeddings) d;
