import en from "../locales/en/errors.json" with { type: "json" };
import es from "../locales/es/errors.json" with { type: "json" };
import fr from "../locales/fr/errors.json" with { type: "json" };

const MESSAGES = { en: en.http, fr: fr.http, es: es.http };
type Code = keyof typeof en.http;

/** The translated text for a request rejected before routing: URL prefix first, then Accept-Language. */
export function rejectionMessage(
  code: Code,
  pathStart: string,
  acceptLanguage: string | undefined,
): { message: string; lang: "en" | "fr" | "es" } {
  const fromPath = /^\/(fr|es)(\/|$|\?)/.exec(pathStart)?.[1] as "fr" | "es" | undefined;
  const fromHeader = acceptLanguage?.match(/^\s*(fr|es)\b/i)?.[1]?.toLowerCase() as "fr" | "es" | undefined;
  const lang = fromPath ?? fromHeader ?? "en";
  return { message: MESSAGES[lang][code], lang };
}
