-- Issue 29 "Patients": the /patients table counts each listed patient's open drafts. The drafts
-- index of 0021 is led by (org_id, created_at), so each count read every open draft of the
-- organisation; this one answers a patient's count from their own entries.
create index notes_org_patient_drafts_idx on public.notes (org_id, patient_id) where status = 'draft';
