import type { COMMON_TEXTS } from '../../texts.ts';
import type { Pattern } from '../catalogue.ts';

/**
 * Spanish shared by every calculator: the widget's own words, the lead form, errors, dates, state
 * names and the rules in words. Written as US firms and the IRS's Spanish pages write (usted, US
 * number format, "impuesto sobre el patrimonio", "albacea"); docs/decisions/languages.md lists the terms chosen.
 */

const MONTHS =
  'enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre'.split(' ');
const EN_MONTHS =
  'January February March April May June July August September October November December'.split(' ');

/** "2026-01-01" → "1 de enero de 2026". */
export function spanishDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  return m ? `${+m[3]!} de ${MONTHS[+m[2]! - 1]} de ${m[1]}` : iso;
}

/** "24 November 2026" (the calculators' notes) → "24 de noviembre de 2026". */
const spanishDatesIn = (text: string): string =>
  text.replace(
    /\b(\d{1,2}) (January|February|March|April|May|June|July|August|September|October|November|December) (\d{4})\b/g,
    (_, d: string, month: string, y: string) => `${d} de ${MONTHS[EN_MONTHS.indexOf(month)]} de ${y}`,
  );

/** State names that Spanish writes differently; the others are the same in both languages. */
export const STATE_NAMES: Record<string, string> = {
  'District of Columbia': 'Distrito de Columbia',
  Hawaii: 'Hawái',
  Louisiana: 'Luisiana',
  Mississippi: 'Misisipi',
  Missouri: 'Misuri',
  'New Hampshire': 'Nuevo Hampshire',
  'New Jersey': 'Nueva Jersey',
  'New Mexico': 'Nuevo México',
  'New York': 'Nueva York',
  'North Carolina': 'Carolina del Norte',
  'North Dakota': 'Dakota del Norte',
  Oregon: 'Oregón',
  Pennsylvania: 'Pensilvania',
  'South Carolina': 'Carolina del Sur',
  'South Dakota': 'Dakota del Sur',
  'West Virginia': 'Virginia Occidental',
};

const stateEs = (name: string): string => STATE_NAMES[name] ?? name;

/** One part of the rules in words: "New York rules for deaths in 2026" → "las de Nueva York para fallecimientos en 2026". */
function rulePart(part: string): string {
  const m = /^(.+?) rules for deaths (.+)$/.exec(part);
  if (!m) return part;
  const who = m[1] === 'Federal' ? 'las federales' : `las de ${stateEs(m[1]!)}`;
  // "from 1 January to 30 June 2026": the first date has no year of its own.
  const when = spanishDatesIn(
    m[2]!.replace(/^from (\d{1,2}) (\w+) to/, (_, d, mo) => `from ${d} ${mo} 2000 to`),
  )
    .replace(/^in (\d{4})$/, 'en $1')
    .replace(/^on or after (.+)$/, 'a partir del $1')
    .replace(/^from (\d{1,2}) de (\w+) de 2000 to (.+)$/, 'del $1 de $2 al $3')
    .replace(/^from (\d{1,2}) de (\w+) to (.+)$/, 'del $1 de $2 al $3')
    .replace(/^in (\d{4}) and (\d{4})$/, 'en $1 y $2');
  return `${who} para fallecimientos ${when}`;
}

/** "Federal rules …; New York rules …" → "las federales … y las de Nueva York …". */
export const spanishRules = (label: string): string => {
  const parts = label.split('; ').map(rulePart);
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} y ${parts.at(-1)}` : parts[0]!;
};

/**
 * The checks of a number field (`kind: 'number'`, only the RMD's age has one): only a page with such
 * a field carries them (each chunk's bytes count against its 6 KB).
 */
export const NUMBER_WORDS: Record<string, string> = {
  'Enter a whole number': 'Escriba un número entero',
  'Enter {0} or more': 'Escriba {0} o más',
  'Enter {0} or less': 'Escriba {0} o menos',
};

export const COMMON_WORDS: Record<string, string> = {
  // The page
  Advanced: 'Opciones avanzadas',
  'Calculating…': 'Calculando…',
  Calculate: 'Calcular',
  Unavailable: 'No disponible',
  'Connecting…': 'Conectando…',
  Result: 'Resultado',
  'Answer the questions above to see an estimate here.':
    'Responda las preguntas de arriba para ver aquí una estimación.',
  'Your estimate': 'Su estimación',
  'Preview · updates as you type': 'Vista previa · se actualiza mientras escribe',
  'Where the money goes': 'A dónde va el dinero',
  'How this was worked out': 'Cómo se calculó',
  'Rules used: {0}.': 'Normas aplicadas: {0}.',
  'Rules in force from {0}': 'Normas vigentes desde el {0}',
  'Download the PDF report': 'Descargar el informe en PDF',
  'about {0}': 'aproximadamente {0}',
  'Choose…': 'Elija…',
  'Not needed': 'No corresponde',
  optional: 'opcional',
  'e.g. {0}': 'p. ej., {0}',
  // Checks of the answers
  'Answer “{0}”': 'Responda “{0}”',
  'Choose one of the listed answers': 'Elija una de las respuestas de la lista',
  'Enter a date such as 2026-06-30': 'Escriba una fecha, p. ej., 2026-06-30',
  'Choose a date between {0} and {1}': 'Elija una fecha entre el {0} y el {1}',
  ', e.g. {0}': ', p. ej., {0}',
  'Enter a number': 'Escriba un número',
  'Enter an amount of zero or more': 'Escriba una cantidad de cero o más',
  'Enter an amount up to $1,000,000,000,000': 'Escriba una cantidad de hasta $1,000,000,000,000',
  'Enter dollars and cents, at most two decimals':
    'Escriba dólares y centavos, con dos decimales como máximo',
  'These answers cannot be worked out.': 'No se puede hacer el cálculo con estas respuestas.',
  // The contact form
  'Thank you': 'Gracias',
  '{0} will be in touch soon about your estimate.':
    '{0} se comunicará con usted en breve para hablar de su estimación.',
  'The firm': 'El bufete',
  'To talk sooner:': 'Si desea hablar antes:',
  'Talk to {0} about this result': 'Hable con {0} sobre este resultado',
  'an attorney': 'un abogado',
  'Your name': 'Su nombre',
  Email: 'Correo electrónico',
  Phone: 'Teléfono',
  State: 'Estado',
  'This is not legal advice and does not create an attorney–client relationship.':
    'Esto no constituye asesoramiento legal ni crea una relación abogado-cliente.',
  'Sending…': 'Enviando…',
  'Try again': 'Intentar de nuevo',
  'Send my details': 'Enviar mis datos',
  'Enter your name': 'Escriba su nombre',
  'Enter an email address, e.g. jane@example.com':
    'Escriba una dirección de correo electrónico, p. ej., ana@example.com',
  'Choose your state': 'Elija su estado',
  'Tick the box so the firm may contact you':
    'Marque la casilla para que el bufete pueda comunicarse con usted',
  // Shown under a firm's English consent text in a Spanish widget (a key: English never shows it).
  'consent:foreign':
    'El texto de consentimiento de arriba está en inglés porque el bufete todavía no tiene una versión en español. Si tiene dudas sobre lo que acepta, consulte al bufete antes de enviar sus datos.',
  'Your details could not be sent: the connection to the firm’s server failed. Nothing you typed is lost; please try again.':
    'No se pudieron enviar sus datos porque falló la conexión con el servidor del bufete. No se perdió nada de lo que escribió; inténtelo de nuevo.',
  // Errors (the API's reasons; events keep their English message)
  'Something went wrong on our side. Please try again.':
    'Ocurrió un problema de nuestra parte. Inténtelo de nuevo.',
  'Something went wrong.': 'Ocurrió un problema.',
  // A failure by its reason (`why`), the same words whether the API or the loader met it.
  'reason:token_denied': 'La sesión de esta calculadora terminó. Vuelva a cargar la página para continuar.',
  'reason:domain_not_allowed': 'Esta calculadora no está disponible en este sitio web.',
  'reason:wrong_key_kind': 'Esta calculadora no está configurada correctamente en este sitio web.',
  'reason:network':
    'La calculadora no pudo comunicarse con su servidor. Revise su conexión e inténtelo de nuevo.',
  'reason:rate_limited': 'Hay demasiadas solicitudes en este momento. Espere un minuto e inténtelo de nuevo.',
  'reason:invalid_input': 'Revise algunas de sus respuestas.',
  'reason:resize_loop': 'Esta calculadora no se pudo mostrar bien en esta página.',
  'reason:unknown': 'Esta calculadora no está disponible en este momento.',
  // State names (the selects, the sentences)
  ...STATE_NAMES,
};

/** The stored texts every calculator writes, by code (calculators/texts.ts). */
export const COMMON_TEXTS_ES: Record<keyof typeof COMMON_TEXTS, string> = {
  disclaimer:
    'Esta es una estimación solo para fines informativos; no es asesoramiento legal ni tributario. Lo que realmente se deba pagar depende de hechos y leyes que aquí no se consideran; consulte a un abogado o a un profesional de impuestos calificado.',
};

/**
 * A value put into a stored text, in Spanish: a date ("2026-01-01", "24 November 2026") in words,
 * a state's name as Spanish writes it; amounts and codes as they are.
 */
export const spanishValue = (_name: string, value: string): string =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) ? spanishDate(value) : spanishDatesIn(STATE_NAMES[value] ?? value);

/** Sentences with no code that every calculator may write: the rules in words. */
export const COMMON_PATTERNS: readonly Pattern[] = [
  [/^.+ rules for deaths .+$/, (label) => spanishRules(label)],
];
