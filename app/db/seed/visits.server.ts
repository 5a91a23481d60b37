import { createExtractiveEngine } from "#app/services/notes/engines/extractive/index.ts";
import { handleGenerateNote } from "#app/services/notes/jobs/generate-note.server.ts";
import { createNote } from "#app/services/notes/notes.server.ts";
import { createPatient } from "#app/services/patients/patients.server.ts";
import { importTranscript } from "#app/services/visits/transcripts.server.ts";
import { createVisit } from "#app/services/visits/visits.server.ts";
import type { Database } from "../database.server.ts";
import { DEMO_ORG_SLUG } from "./organizations.server.ts";
import type { Seeder } from "./run.server.ts";

const DEMO_PATIENT_ID = "DEMO-0001";

// Written by the team for the demo: a short primary-care visit with a medication, an allergy,
// vitals, negatives and a plan, so the note editor has evidence, omissions and every section to show.
const DEMO_DIALOGUE = [
  "[doctor] Good morning, what brings you in today?",
  "[patient] I've had a cough for about two weeks, and some tightness in my chest at night.",
  "[doctor] Any fever or shortness of breath?",
  "[patient] No fever. A little short of breath when I climb stairs.",
  "[doctor] Are you taking any medications?",
  "[patient] Lisinopril 10 mg once a day for my blood pressure, and ibuprofen when I need it.",
  "[doctor] Any allergies to medications?",
  "[patient] Yes, I'm allergic to penicillin, it gives me a rash.",
  "[doctor] Your blood pressure today is 138 over 86, and your oxygen saturation is 97 percent.",
  "[doctor] I hear some wheezing on the left side, but no crackles.",
  "[doctor] This looks like acute bronchitis, probably viral.",
  "[doctor] Let's start an albuterol inhaler, two puffs every six hours as needed.",
  "[doctor] Stop the ibuprofen for now and come back in one week if the cough is not better.",
].join("\n");

/**
 * A demo patient with one transcribed visit and a draft SOAP note, in the demo practice, created
 * through the services as its clinician (so consent, audit and evidence are all real). Needs the
 * organisations seeder first; running it again changes nothing.
 */
export function visitsSeeder(): Seeder {
  return {
    name: "visits",
    async run(db: Database) {
      const org = await db.kysely.selectFrom("organizations").select("id").where("slug", "=", DEMO_ORG_SLUG).executeTakeFirst();
      if (!org) return "no demo practice: skipped";
      const exists = await db.kysely
        .selectFrom("patients")
        .select("id")
        .where("org_id", "=", org.id)
        .where("external_id", "=", DEMO_PATIENT_ID)
        .executeTakeFirst();
      if (exists) return "demo patient already present";
      const clinician = await db.kysely
        .selectFrom("org_members")
        .select("user_id")
        .where("org_id", "=", org.id)
        .where("role", "=", "clinician")
        .executeTakeFirstOrThrow();
      const args = { db, actor: { userId: clinician.user_id }, orgId: org.id };
      const patient = await createPatient({
        ...args,
        patient: { display_name: "Jane Doe", date_of_birth: "1968-04-12", sex: "female", external_id: DEMO_PATIENT_ID },
      });
      const visit = await createVisit({ ...args, patientId: patient.id, title: "Cough", language: "en", consent: true });
      await importTranscript({ ...args, visitId: visit.id, text: DEMO_DIALOGUE });
      const note = await createNote({ ...args, visitId: visit.id, templateId: "builtin:soap" });
      await handleGenerateNote({ data: { orgId: org.id, noteId: note.id } }, { db, engine: createExtractiveEngine() });
      return "demo patient Jane Doe with a transcribed visit and a draft SOAP note";
    },
  };
}
