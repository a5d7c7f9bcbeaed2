import { spanishDate } from '../../calculators/i18n/es/common.ts';

/**
 * A Spanish widget's date field. A native date field is drawn in the browser's locale, whatever the
 * page's `lang` (mm/dd/yyyy in an English browser), so once a date is chosen its help, which is the
 * field's accessible description, ends with that date in Spanish words ("Fecha elegida: 1 de mayo
 * de 2026"); the help's own Spanish says how to read mm/dd/yyyy. Part of the Spanish chunk only:
 * an English page carries none of it.
 */
export const sayDates = (doc: Document): void =>
  doc.addEventListener('input', (e) => {
    const { type, id, value } = e.target as HTMLInputElement;
    const help = type === 'date' && doc.getElementById(`${id}-help`);
    // A <b> of its own after the help's text, which the page renders and then leaves alone.
    if (help)
      (help.lastElementChild ?? help.appendChild(doc.createElement('b'))).textContent =
        value && ` Fecha elegida: ${spanishDate(value)}.`;
  });
