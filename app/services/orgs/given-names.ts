// Issue 11: Spanish names a doctor "Dr." or "Dra.", and the issue's own example wants
// "Dr Ana Ruiz" → "Consultorio de la Dra. Ana Ruiz". The typed "Dr" carries no gender, so the
// given name decides, and only where the language needs it (Spanish; French writes "du Dr" for
// everyone, English has no gendered form). The rule is deliberately small and conservative: a given
// name ending in "-a" is feminine unless listed below, plus a team-written list of common feminine
// names that do not end in "-a". Anything unknown keeps the masculine/neutral "Dr." — the organisation
// stays renamable in settings, so a wrong guess costs one edit.

/** Common feminine given names (lower case, with and without accents) that do not end in "a". */
export const FEMININE_GIVEN_NAMES: readonly string[] = [
  "abigail abril agnès agnes alice alison allison amélie amelie amparo amy anahí anahi ann anne araceli",
  "aracely asunción asuncion astrid aurélie aurelie beatrice beatriz belén belen betty beverly brigitte",
  "carmen carol carolyn caroline catherine céline celine chantal charlotte chloé chloe christine",
  "clémence clemence claire concepción concepcion consuelo danielle deborah denise dolores doris",
  "dorothy eileen élise elise elizabeth ellen élodie elodie émilie emilie emily encarnación encarnacion",
  "ester esther evelyn flor gabrielle geneviève genevieve gisèle gisele grace guadalupe hélène helene",
  "helen ines inés inès ingrid irene isabel isabelle ivonne jacqueline jane janet janice jennifer joyce",
  "judith judy julie juliette justine karen kate katherine kathleen kathryn kimberly leire leonor",
  "lourdes louise lucie lucy luz madeleine maite maité manon mar margaret margot marie marilyn marisol",
  "mary megan melanie mercedes michelle milagros miren mireille miriam natalie nathalie nicole nieves",
  "noemí noemi océane oceane pauline pilar raquel rachel remedios rocío rocio rose ruth sandrine sarah",
  "sharon shirley soledad solène solene sophie stéphanie stephanie susan sylvie valérie valerie",
  "véronique veronique yvonne zoé zoë zoe",
]
  .join(" ")
  .split(" ");

/** Given names ending in "a" that are usually masculine. */
export const MASCULINE_GIVEN_NAMES_IN_A: readonly string[] = [
  "akira bautista borja elia ezra hamza ilya joshua luca mustafa nikita osama taha ventura",
]
  .join(" ")
  .split(" ");
