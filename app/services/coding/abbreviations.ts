// Common clinical abbreviations → the words ICD-10-CM titles use. Used by code search and by the
// embedded engine (each expansion is matched as if the words were written out).
export const ABBREVIATIONS: Readonly<Record<string, string>> = {
  htn: "hypertension",
  dm: "diabetes mellitus",
  t1dm: "type 1 diabetes mellitus",
  t2dm: "type 2 diabetes mellitus",
  dm2: "type 2 diabetes mellitus",
  copd: "chronic obstructive pulmonary disease",
  chf: "heart failure",
  cad: "coronary artery disease atherosclerotic heart disease",
  afib: "atrial fibrillation",
  af: "atrial fibrillation",
  mi: "myocardial infarction",
  ami: "acute myocardial infarction",
  cva: "cerebral infarction",
  tia: "transient cerebral ischemic attack",
  dvt: "deep vein thrombosis",
  pe: "pulmonary embolism",
  uti: "urinary tract infection",
  uri: "acute upper respiratory infection",
  gerd: "gastro-esophageal reflux disease",
  ckd: "chronic kidney disease",
  aki: "acute kidney failure",
  arf: "acute kidney failure",
  osa: "obstructive sleep apnea",
  bph: "benign prostatic hyperplasia",
  ra: "rheumatoid arthritis",
  oa: "osteoarthritis",
  hld: "hyperlipidemia",
  adhd: "attention-deficit hyperactivity disorder",
  mdd: "major depressive disorder",
  gad: "generalized anxiety disorder",
  sob: "shortness of breath",
  cp: "chest pain",
  hiv: "human immunodeficiency virus",
  hcv: "hepatitis c",
  hbv: "hepatitis b",
  tb: "tuberculosis",
  ibs: "irritable bowel syndrome",
  ibd: "inflammatory bowel disease",
  sle: "systemic lupus erythematosus",
  ms: "multiple sclerosis",
  pad: "peripheral vascular disease",
  pvd: "peripheral vascular disease",
  lbp: "low back pain",
  nstemi: "non-st elevation myocardial infarction",
  stemi: "st elevation myocardial infarction",
  cll: "chronic lymphocytic leukemia",
  aml: "acute myeloblastic leukemia",
  all: "acute lymphoblastic leukemia",
  nhl: "non-hodgkin lymphoma",
  hcc: "liver cell carcinoma",
  rcc: "renal cell carcinoma",
  sclc: "small cell carcinoma lung",
  nsclc: "non-small cell carcinoma lung",
  ards: "acute respiratory distress syndrome",
  ptsd: "post-traumatic stress disorder",
  ocd: "obsessive-compulsive disorder",
};

/** Abbreviations written in capitals or lower case, as whole words (ALL only in capitals: "all" is a word). */
export function expandAbbreviation(raw: string): string | undefined {
  const lower = raw.toLowerCase();
  if (lower === "all" || lower === "ms" || lower === "pe" || lower === "cp" || lower === "af" || lower === "ra") {
    return raw === raw.toUpperCase() ? ABBREVIATIONS[lower] : undefined;
  }
  return ABBREVIATIONS[lower];
}
