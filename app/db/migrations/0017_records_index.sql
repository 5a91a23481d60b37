-- Ask Murmur (issue 12): the visit's clinical date, the records index the assistant ranks in,
-- and the product-help articles.
--
-- The index is written only by the triggers below, in the transaction of the write that changes
-- a record: a transcript version saved or edited, a note drafted, edited, signed or amended. A
-- deleted visit (or draft note) takes its rows with it through foreign keys. No service has to
-- remember to re-index, and murmur_app cannot write the table at all.
--
-- Access follows docs/permissions.md "Records Q&A": transcript rows are read by owners,
-- clinicians and staff, doctor-note rows only by owners and clinicians. The policy filters before
-- any ranking runs: a staff member's query never sees a note sentence, not even to score it.
--
-- Text search: one configuration per clinical language (english, french, spanish). Accents are
-- folded by app.rag_fold (translate), not by the unaccent extension: PGlite can only use
-- unaccent when the database is opened with it loaded, and migrations run unchanged on both.

-- ---------------------------------------------------------------- visit date

alter table public.visits add column visit_date date;
update public.visits v set visit_date = (v.created_at at time zone o.timezone)::date
  from public.organizations o where o.id = v.org_id;

-- The creation day in the organisation's time zone unless the caller gave one (POST /api/visits
-- checks "not in the future" in that zone too).
create function app.visits_default_date() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  if new.visit_date is null then
    select (coalesce(new.created_at, now()) at time zone o.timezone)::date into new.visit_date
      from public.organizations o where o.id = new.org_id;
    new.visit_date := coalesce(new.visit_date, (now() at time zone 'UTC')::date);
  end if;
  return new;
end
$$;
revoke execute on function app.visits_default_date() from public;
create trigger visits_default_date before insert on public.visits
  for each row execute function app.visits_default_date();
alter table public.visits alter column visit_date set not null;
alter table public.visits add constraint visits_visit_date_range
  check (visit_date between date '1900-01-01' and date '2200-01-01');
create index visits_org_id_visit_date_idx on public.visits (org_id, patient_id, visit_date desc);

-- ---------------------------------------------------------------- text helpers

create function app.rag_fold(t text) returns text
  language sql immutable parallel safe
  set search_path = ''
as $$
  select replace(replace(lower(translate(t,
    'ÀÁÂÃÄÅàáâãäåÈÉÊËèéêëÌÍÎÏìíîïÒÓÔÕÖòóôõöÙÚÛÜùúûüÇçÑñÝýÿ',
    'AAAAAAaaaaaaEEEEeeeeIIIIiiiiOOOOOoooooUUUUuuuuCcNnYyy')), 'œ', 'oe'), 'æ', 'ae')
$$;

create function app.rag_ts_config(language text) returns regconfig
  language sql immutable parallel safe
  set search_path = ''
as $$
  select case language when 'fr' then 'pg_catalog.french'::regconfig
                       when 'es' then 'pg_catalog.spanish'::regconfig
                       else 'pg_catalog.english'::regconfig end
$$;

create function app.rag_tsvector(language text, t text) returns tsvector
  language sql immutable parallel safe
  set search_path = ''
as $$
  select pg_catalog.to_tsvector(app.rag_ts_config(language), app.rag_fold(t))
$$;

-- Any of `terms` (each a word or a phrase, matched as a phrase) in `language`'s configuration;
-- terms made only of stop words drop out; null when none is left (matches nothing).
create function app.rag_query(language text, terms text[]) returns tsquery
  language sql immutable parallel safe
  set search_path = ''
as $$
  select nullif(string_agg('(' || q::text || ')', ' | '), '')::tsquery
    from (select pg_catalog.phraseto_tsquery(app.rag_ts_config(language), app.rag_fold(t)) as q
            from unnest(terms) as t) x
   where q::text <> ''
$$;

grant execute on function app.rag_fold(text), app.rag_ts_config(text), app.rag_tsvector(text, text),
  app.rag_query(text, text[]) to murmur_app;

-- ---------------------------------------------------------------- records index

create table public.record_chunks (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null,
  visit_id uuid not null,
  patient_id uuid not null,
  record_type text not null check (record_type in ('transcription', 'doctor_note', 'case')),
  -- SPEC §2 citation source: a transcript cites its visit, a note its note id.
  source_table text not null check (source_table in ('transcriptions', 'doctor_notes', 'cases')),
  source_id uuid not null,
  note_id uuid,
  -- 'segment' for transcripts, the section key for notes.
  field text not null check (char_length(field) between 1 and 100),
  label text not null default '' check (char_length(label) <= 200),
  -- draft, signed or amended for note rows: an answer can say which it rests on.
  note_status text check (note_status in ('draft', 'signed', 'amended')),
  position integer not null check (position >= 0),
  start_s real,
  end_s real,
  language text not null check (language in ('en', 'fr', 'es')),
  visit_date date not null,
  text text not null check (char_length(text) between 1 and 20000),
  tsv tsvector not null generated always as (app.rag_tsvector(language, text)) stored,
  created_at timestamptz not null default now(),
  foreign key (org_id, visit_id) references public.visits (org_id, id) on delete cascade,
  foreign key (org_id, note_id) references public.notes (org_id, id) on delete cascade
);
create index record_chunks_tsv_idx on public.record_chunks using gin (tsv);
create index record_chunks_org_patient_idx on public.record_chunks (org_id, patient_id, visit_date desc);
create index record_chunks_source_idx on public.record_chunks (org_id, source_table, source_id, position);
create index record_chunks_note_idx on public.record_chunks (note_id) where note_id is not null;

revoke insert, update, delete, truncate on public.record_chunks from murmur_app;
alter table public.record_chunks enable row level security;
alter table public.record_chunks force row level security;

-- Only the current organisation (withActor sets it), and the role checks are uncorrelated
-- sub-selects: evaluated once per query, not once per row of a 100,000-row ranking.
create policy record_chunks_select on public.record_chunks for select to murmur_app
  using (
    org_id = (select app.current_org_id())
    and case when record_type = 'doctor_note'
      then (select app.has_role((select app.current_org_id()), array['owner', 'clinician']))
      else (select app.has_role((select app.current_org_id()), array['owner', 'clinician', 'staff'])) end
  );

-- ---------------------------------------------------------------- index maintenance

-- The newest transcript version replaces the visit's transcript rows: ASR segments keep their
-- seconds; a transcript without segments (an import) is cut into sentences.
create function app.rag_index_transcription() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
declare
  v record;
begin
  select id, patient_id, visit_date into v from public.visits where org_id = new.org_id and id = new.visit_id;
  if exists (select 1 from public.transcriptions t
             where t.org_id = new.org_id and t.visit_id = new.visit_id and t.version > new.version) then
    return null;
  end if;
  delete from public.record_chunks
    where org_id = new.org_id and source_table = 'transcriptions' and source_id = new.visit_id;
  if jsonb_array_length(new.segments) > 0 then
    insert into public.record_chunks
      (org_id, visit_id, patient_id, record_type, source_table, source_id, field, position,
       start_s, end_s, language, visit_date, text)
    select new.org_id, new.visit_id, v.patient_id, 'transcription', 'transcriptions', new.visit_id,
           'segment', (s.n - 1)::int, (s.seg ->> 'start')::real, (s.seg ->> 'end')::real,
           new.language, v.visit_date, left(btrim(s.seg ->> 'text'), 20000)
    from jsonb_array_elements(new.segments) with ordinality as s(seg, n)
    where btrim(coalesce(s.seg ->> 'text', '')) <> '';
  else
    insert into public.record_chunks
      (org_id, visit_id, patient_id, record_type, source_table, source_id, field, position,
       language, visit_date, text)
    select new.org_id, new.visit_id, v.patient_id, 'transcription', 'transcriptions', new.visit_id,
           'text', (m.n - 1)::int, new.language, v.visit_date, left(btrim(m.part[1]), 20000)
    from regexp_matches(new.text, '([^.!?\n]+[.!?]*)', 'g') with ordinality as m(part, n)
    where char_length(btrim(m.part[1])) > 1;
  end if;
  return null;
end
$$;
revoke execute on function app.rag_index_transcription() from public;
create trigger transcriptions_rag_index after insert on public.transcriptions
  for each row execute function app.rag_index_transcription();

-- A note's current text (draft, signed or amended), one row per sentence of each section. A note
-- still generating or failed has no text to cite.
create function app.rag_index_note() returns trigger
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
     note_status, position, language, visit_date, text)
  select new.org_id, new.visit_id, new.patient_id, 'doctor_note', 'doctor_notes', new.id, new.id,
         left(coalesce(nullif(sec.s ->> 'key', ''), 'section'), 100), left(coalesce(sec.s ->> 'title', ''), 200),
         new.status, (row_number() over (order by sec.n, sen.n) - 1)::int,
         new.language, v.visit_date, left(btrim(sen.t), 20000)
  from jsonb_array_elements(new.content) with ordinality as sec(s, n)
  cross join lateral (
    select x.value ->> 'text' as t, x.n
      from jsonb_array_elements(case when jsonb_typeof(sec.s -> 'sentences') = 'array'
                                     then sec.s -> 'sentences' else '[]'::jsonb end) with ordinality as x(value, n)
    union all
    select m.part[1], m.n
      from regexp_matches(coalesce(sec.s ->> 'text', ''), '([^.!?\n]+[.!?]*)', 'g') with ordinality as m(part, n)
      where jsonb_typeof(sec.s -> 'sentences') is distinct from 'array'
         or jsonb_array_length(sec.s -> 'sentences') = 0
  ) sen
  where char_length(btrim(coalesce(sen.t, ''))) > 1
    and btrim(regexp_replace(sen.t, '^\s*[-•*]\s+', '')) <> '';
  return null;
end
$$;
revoke execute on function app.rag_index_note() from public;
create trigger notes_rag_index_insert after insert on public.notes
  for each row execute function app.rag_index_note();
create trigger notes_rag_index_update after update on public.notes
  for each row when (old.content is distinct from new.content or old.status is distinct from new.status)
  execute function app.rag_index_note();

-- A corrected visit date moves its citations and date filters with it.
create function app.rag_visit_date() returns trigger
  language plpgsql security definer
  set search_path = ''
as $$
begin
  update public.record_chunks set visit_date = new.visit_date
    where org_id = new.org_id and visit_id = new.id;
  return null;
end
$$;
revoke execute on function app.rag_visit_date() from public;
create trigger visits_rag_visit_date after update of visit_date on public.visits
  for each row when (old.visit_date is distinct from new.visit_date)
  execute function app.rag_visit_date();

-- ---------------------------------------------------------------- product help

-- Product-wide articles (no organisation): every signed-in member reads them. Rows are written
-- by migrations: the team's articles below, in the three interface languages.
create table public.help (
  id text primary key check (id ~ '^[a-z0-9_-]{1,80}$'),
  slug text not null check (slug ~ '^[a-z0-9_-]{1,60}$'),
  language text not null check (language in ('en', 'fr', 'es')),
  title text not null check (char_length(title) between 1 and 200),
  body text not null check (char_length(body) between 1 and 20000),
  tsv tsvector not null generated always as (app.rag_tsvector(language, title || '. ' || body)) stored,
  updated_at timestamptz not null default now(),
  unique (slug, language)
);
create index help_tsv_idx on public.help using gin (tsv);
revoke insert, update, delete, truncate on public.help from murmur_app;
alter table public.help enable row level security;
alter table public.help force row level security;
create policy help_select on public.help for select to murmur_app using (true);

insert into public.help (id, slug, language, title, body) values
  ('record-en', 'record', 'en', $h$How to record a visit$h$, $h$Open Transcribing, pick or create the patient and the visit, confirm the patient's consent, then press Record. Recording continues when the connection drops: chunks are uploaded when it comes back. Press Stop to finish; the transcript appears when transcription is done. You can also upload an audio file or import a transcript.$h$),
  ('record-fr', 'record', 'fr', $h$Enregistrer une consultation$h$, $h$Ouvrez Transcription, choisissez ou créez le patient et la consultation, confirmez le consentement du patient, puis appuyez sur Enregistrer. L'enregistrement continue si la connexion tombe : les morceaux sont envoyés à son retour. Appuyez sur Arrêter pour terminer ; la transcription apparaît une fois prête. Vous pouvez aussi envoyer un fichier audio ou importer une transcription.$h$),
  ('record-es', 'record', 'es', $h$Cómo grabar una consulta$h$, $h$Abra Transcripción, elija o cree el paciente y la consulta, confirme el consentimiento del paciente y pulse Grabar. La grabación continúa si se corta la conexión: los fragmentos se envían cuando vuelve. Pulse Detener para terminar; la transcripción aparece cuando está lista. También puede subir un archivo de audio o importar una transcripción.$h$),
  ('consent-en', 'consent', 'en', $h$Patient consent$h$, $h$Murmur asks you to confirm the patient's consent before each recording. Who confirmed it and when is kept with the visit and in the audit log. Without consent, recording cannot start.$h$),
  ('consent-fr', 'consent', 'fr', $h$Consentement du patient$h$, $h$Murmur vous demande de confirmer le consentement du patient avant chaque enregistrement. Qui l'a confirmé et quand est conservé avec la consultation et dans le journal d'audit. Sans consentement, l'enregistrement ne peut pas commencer.$h$),
  ('consent-es', 'consent', 'es', $h$Consentimiento del paciente$h$, $h$Murmur le pide confirmar el consentimiento del paciente antes de cada grabación. Quién lo confirmó y cuándo se guarda con la consulta y en el registro de auditoría. Sin consentimiento no se puede grabar.$h$),
  ('templates-en', 'templates', 'en', $h$Note templates$h$, $h$Templates decide the sections of a note (for example SOAP). Owners and admins edit the organisation's templates in Custom templates; clinicians and staff keep personal copies. A template section can be carried forward from the last signed note.$h$),
  ('templates-fr', 'templates', 'fr', $h$Modèles de notes$h$, $h$Les modèles définissent les sections d'une note (par exemple SOAP). Les propriétaires et administrateurs modifient les modèles de l'organisation dans Modèles personnalisés ; cliniciens et personnel gardent des copies personnelles. Une section peut être reprise de la dernière note signée.$h$),
  ('templates-es', 'templates', 'es', $h$Plantillas de notas$h$, $h$Las plantillas definen las secciones de una nota (por ejemplo SOAP). Propietarios y administradores editan las plantillas de la organización en Plantillas personalizadas; clínicos y personal guardan copias personales. Una sección puede retomarse de la última nota firmada.$h$),
  ('signing-en', 'signing', 'en', $h$Signing and amending notes$h$, $h$Owners and clinicians sign a note from the Coding page once it is reviewed. A signed note never changes: to correct it, add an amendment with a reason. Every version is kept with its fingerprint.$h$),
  ('signing-fr', 'signing', 'fr', $h$Signer et amender une note$h$, $h$Les propriétaires et cliniciens signent une note depuis la page Codage après relecture. Une note signée ne change plus : pour la corriger, ajoutez un amendement avec un motif. Chaque version est conservée avec son empreinte.$h$),
  ('signing-es', 'signing', 'es', $h$Firmar y enmendar notas$h$, $h$Propietarios y clínicos firman una nota desde la página Codificación tras revisarla. Una nota firmada no cambia: para corregirla, añada una enmienda con un motivo. Cada versión se conserva con su huella.$h$),
  ('coding-en', 'coding', 'en', $h$Coding$h$, $h$The Coding page shows the note beside its transcript. Each sentence links to the words it rests on; unsupported sentences are flagged. Codes are suggested from the note.$h$),
  ('coding-fr', 'coding', 'fr', $h$Codage$h$, $h$La page Codage montre la note à côté de sa transcription. Chaque phrase renvoie aux mots sur lesquels elle repose ; les phrases sans appui sont signalées. Des codes sont proposés à partir de la note.$h$),
  ('coding-es', 'coding', 'es', $h$Codificación$h$, $h$La página Codificación muestra la nota junto a su transcripción. Cada frase enlaza con las palabras en que se basa; las frases sin apoyo se marcan. Se sugieren códigos a partir de la nota.$h$),
  ('perio-en', 'perio', 'en', $h$Periodontal chart$h$, $h$The Periodontal chart page records probing depths, bleeding and recession per tooth. You can enter values by keyboard or by voice.$h$),
  ('perio-fr', 'perio', 'fr', $h$Charte parodontale$h$, $h$La page Charte parodontale enregistre les profondeurs de sondage, les saignements et les récessions par dent. Vous pouvez saisir les valeurs au clavier ou à la voix.$h$),
  ('perio-es', 'perio', 'es', $h$Periodontograma$h$, $h$La página Periodontograma registra profundidades de sondaje, sangrado y recesión por diente. Puede introducir los valores con el teclado o por voz.$h$),
  ('invitations-en', 'invitations', 'en', $h$Inviting your team$h$, $h$Owners and admins invite members from Settings, Invitations, with a role: admin, clinician or staff (owners may also invite owners). An invitation is valid 7 days and can be resent or revoked.$h$),
  ('invitations-fr', 'invitations', 'fr', $h$Inviter votre équipe$h$, $h$Les propriétaires et administrateurs invitent des membres depuis Paramètres, Invitations, avec un rôle : administrateur, clinicien ou personnel (les propriétaires peuvent aussi inviter des propriétaires). Une invitation vaut 7 jours et peut être renvoyée ou révoquée.$h$),
  ('invitations-es', 'invitations', 'es', $h$Invitar a su equipo$h$, $h$Propietarios y administradores invitan miembros desde Ajustes, Invitaciones, con un rol: administrador, clínico o personal (los propietarios también pueden invitar propietarios). Una invitación vale 7 días y puede reenviarse o revocarse.$h$),
  ('plans-en', 'plans', 'en', $h$Plans and billing$h$, $h$Every organisation starts with a trial. Owners choose a plan in Settings, Billing. Plans differ by recording allowance and number of members.$h$),
  ('plans-fr', 'plans', 'fr', $h$Offres et facturation$h$, $h$Chaque organisation commence par un essai. Les propriétaires choisissent une offre dans Paramètres, Facturation. Les offres diffèrent par le volume d'enregistrement et le nombre de membres.$h$),
  ('plans-es', 'plans', 'es', $h$Planes y facturación$h$, $h$Cada organización empieza con una prueba. Los propietarios eligen un plan en Ajustes, Facturación. Los planes difieren en el tiempo de grabación y el número de miembros.$h$),
  ('languages-en', 'languages', 'en', $h$Languages$h$, $h$Murmur speaks English, French and Spanish. Change the interface language from the language menu; a visit keeps its own clinical language, and its transcript and note stay in that language.$h$),
  ('languages-fr', 'languages', 'fr', $h$Langues$h$, $h$Murmur parle anglais, français et espagnol. Changez la langue de l'interface depuis le menu des langues ; une consultation garde sa propre langue clinique, et sa transcription et sa note restent dans cette langue.$h$),
  ('languages-es', 'languages', 'es', $h$Idiomas$h$, $h$Murmur habla inglés, francés y español. Cambie el idioma de la interfaz desde el menú de idiomas; una consulta conserva su propio idioma clínico, y su transcripción y su nota siguen en ese idioma.$h$),
  ('privacy-en', 'privacy', 'en', $h$Privacy and security$h$, $h$Each organisation's records are isolated from every other one in the database. Admins manage the organisation but do not see clinical data. Audio is deleted after the organisation's retention period; transcripts and notes stay.$h$),
  ('privacy-fr', 'privacy', 'fr', $h$Confidentialité et sécurité$h$, $h$Les dossiers de chaque organisation sont isolés de toutes les autres dans la base de données. Les administrateurs gèrent l'organisation sans voir les données cliniques. L'audio est supprimé après la durée de conservation de l'organisation ; transcriptions et notes restent.$h$),
  ('privacy-es', 'privacy', 'es', $h$Privacidad y seguridad$h$, $h$Los registros de cada organización están aislados de todas las demás en la base de datos. Los administradores gestionan la organización sin ver datos clínicos. El audio se borra tras el período de conservación de la organización; transcripciones y notas permanecen.$h$),
  ('ask-en', 'ask', 'en', $h$Ask Murmur$h$, $h$Ask Murmur answers questions from a patient's records with citations you can open, and questions about the product from these help articles. Pick a patient and filters on the Records Q&A page, or use the floating button on any page.$h$),
  ('ask-fr', 'ask', 'fr', $h$Demander à Murmur$h$, $h$Demander à Murmur répond aux questions sur le dossier d'un patient avec des citations que vous pouvez ouvrir, et aux questions sur le produit à partir de ces articles d'aide. Choisissez un patient et des filtres sur la page Questions sur les dossiers, ou utilisez le bouton flottant sur n'importe quelle page.$h$),
  ('ask-es', 'ask', 'es', $h$Preguntar a Murmur$h$, $h$Preguntar a Murmur responde preguntas sobre la historia de un paciente con citas que puede abrir, y preguntas sobre el producto a partir de estos artículos de ayuda. Elija un paciente y filtros en la página Preguntas sobre historias, o use el botón flotante en cualquier página.$h$);
