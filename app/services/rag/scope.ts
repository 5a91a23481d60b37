import { fold } from "./expand.ts";
import type { AskFilters, AskScope } from "./model.ts";

// Issue 12 "Help mode": scope "help" asks only the help articles, "records" only the records
// (the default as soon as a patient or filters are given); without either, a question about the
// product goes to help. Pure, so the classifier is unit-tested in all three languages.

const HOW =
  /\b(how (do|can|should|to)|where (do|can|is|are)|can i|comment (je|faire|puis|on|ajouter|changer)|ou (est|puis|sont)|como (puedo|hago|se|cambio|agrego)|donde (esta|puedo))\b/;
const PRODUCT =
  /\b(murmur|templates?|modeles?|plantillas?|invit\w*|billing|factur\w*|subscription|abonnement|suscripcion|password|mot de passe|contrasena|settings|parametres|ajustes|consent\w*|sign(ing)? (a|the|my)? ?notes?|sign\w* (la|une|una|la) notes?|signer|firmar|languages?|langues?|idiomas?|perio\w*|privacy|confidentialite|privacidad|upload|export|dashboard|tableau de bord|panel|account|compte|cuenta|organi[sz]ation|organizacion|members?|membres?|miembros|plans?|offres?|record(ing)? (a|an) (visit|consultation)|enregistr\w*|grab\w*|transcri\w* (an?|une?) |app(lication)?|button|bouton|boton)\b/;
// A question about a person's care is about records even when it names a product word.
const CLINICAL =
  /\b(patient|patiente|paciente|she|he|her|his|elle|ella|dose|mg|medication|medicament|medicamento|diagnos\w*|pain|douleur|dolor)\b/;

export function isProductQuestion(question: string): boolean {
  const q = fold(question);
  if (CLINICAL.test(q)) return false;
  return PRODUCT.test(q) || (HOW.test(q) && /\b(i|je|j'|on|yo|puedo)\b/.test(q));
}

export function chooseScope(args: {
  scope?: AskScope | null;
  patientId?: string | null;
  filters: AskFilters;
  question: string;
}): AskScope {
  if (args.scope) return args.scope;
  const filtered = Boolean(args.filters.record_types?.length || args.filters.date_from || args.filters.date_to);
  if (args.patientId || filtered) return "records";
  return isProductQuestion(args.question) ? "help" : "records";
}
