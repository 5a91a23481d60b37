import type { NoteLanguage, TranscriptPiece } from "../model.ts";

// The visit the template editor previews against: a short primary-care dialogue with a
// complaint, pertinent negatives, medications, an allergy, vitals, a tooth and a plan, so most
// section kinds have something to draw from. Fictional; no real patient.

type Line = [speaker: "doctor" | "patient", text: string];

const LINES: Record<NoteLanguage, Line[]> = {
  en: [
    ["doctor", "Good morning, what brings you in today?"],
    ["patient", "I've had a headache and some dizziness for about a week, mostly in the mornings."],
    ["doctor", "Any chest pain or shortness of breath?"],
    ["patient", "No chest pain, no shortness of breath."],
    ["doctor", "What are you taking at the moment?"],
    [
      "patient",
      "Lisinopril 10 milligrams once a day, and ibuprofen when the headache is bad. I'm allergic to penicillin, it gives me a rash.",
    ],
    ["doctor", "Your blood pressure today is 152 over 94 and your heart rate is 78."],
    ["doctor", "You also mentioned tooth 14 is sensitive to cold; there is a small cavity on it."],
    [
      "doctor",
      "I think your blood pressure is not well controlled. Let's increase lisinopril to 20 milligrams daily, stop the ibuprofen, and see you again in two weeks.",
    ],
    ["patient", "Okay, thank you."],
  ],
  fr: [
    ["doctor", "Bonjour, qu'est-ce qui vous amène aujourd'hui ?"],
    ["patient", "J'ai mal à la tête et des vertiges depuis environ une semaine, surtout le matin."],
    ["doctor", "Avez-vous des douleurs thoraciques ou un essoufflement ?"],
    ["patient", "Pas de douleur thoracique, pas d'essoufflement."],
    ["doctor", "Quels médicaments prenez-vous actuellement ?"],
    [
      "patient",
      "Du lisinopril 10 milligrammes une fois par jour, et de l'ibuprofène quand la douleur est forte. Je suis allergique à la pénicilline, ça me donne une éruption.",
    ],
    ["doctor", "Votre tension aujourd'hui est à 152 sur 94 et votre pouls à 78."],
    ["doctor", "Vous avez aussi signalé que la dent 14 est sensible au froid ; il y a une petite carie."],
    [
      "doctor",
      "Votre tension n'est pas bien contrôlée. Nous augmentons le lisinopril à 20 milligrammes par jour, vous arrêtez l'ibuprofène, et je vous revois dans deux semaines.",
    ],
    ["patient", "D'accord, merci."],
  ],
  es: [
    ["doctor", "Buenos días, ¿qué le trae hoy por aquí?"],
    ["patient", "Tengo dolor de cabeza y algo de mareo desde hace una semana, sobre todo por las mañanas."],
    ["doctor", "¿Tiene dolor en el pecho o falta de aire?"],
    ["patient", "No tengo dolor en el pecho ni falta de aire."],
    ["doctor", "¿Qué medicamentos toma ahora?"],
    [
      "patient",
      "Lisinopril 10 miligramos una vez al día, e ibuprofeno cuando el dolor es fuerte. Soy alérgico a la penicilina, me da un sarpullido.",
    ],
    ["doctor", "Su presión arterial hoy es de 152 sobre 94 y la frecuencia cardiaca de 78."],
    ["doctor", "También comentó que el diente 14 está sensible al frío; tiene una pequeña caries."],
    [
      "doctor",
      "Su presión no está bien controlada. Vamos a subir el lisinopril a 20 miligramos al día, deje el ibuprofeno y le veo de nuevo en dos semanas.",
    ],
    ["patient", "De acuerdo, gracias."],
  ],
};

/** The sample as transcript pieces, about five seconds a turn. */
export function sampleTranscript(language: NoteLanguage): TranscriptPiece[] {
  return LINES[language].map(([speaker, text], i) => ({ start: i * 5, end: i * 5 + 4.5, text, speaker }));
}
