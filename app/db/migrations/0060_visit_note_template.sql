-- Issue 29 "A visit in one tap, ending on a draft": the template chosen when the visit started.
-- When the transcript is ready and the organisation's auto-draft setting is on (settings
-- ->> 'auto_draft', absent = on), the transcription job drafts the note with this template, or
-- with the built-in SOAP note when none was chosen. Built-ins are `builtin:<slug>`, others a uuid.
alter table public.visits add column note_template_id text
  check (note_template_id is null or char_length(note_template_id) between 1 and 100);
