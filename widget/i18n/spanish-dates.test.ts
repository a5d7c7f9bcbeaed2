import { afterEach, describe, expect, it } from 'vitest';
import { sayDates } from './spanish-dates.ts';

afterEach(() => {
  document.body.innerHTML = '';
});

describe('a Spanish widget’s date field', () => {
  it('ends its help (the field’s description) with the chosen date in Spanish words, and with nothing when cleared', () => {
    document.body.innerHTML = `<div class="field date">
      <label for="f-dateOfDeath">Fecha de fallecimiento</label>
      <input id="f-dateOfDeath" type="date" aria-describedby="f-dateOfDeath-help">
      <p class="help" id="f-dateOfDeath-help">Determina las normas que se aplican.</p>
      <input id="f-other" type="text"><p id="f-other-help">Otra ayuda.</p>
    </div>`;
    sayDates(document);
    const input = document.getElementById('f-dateOfDeath') as HTMLInputElement;
    const help = document.getElementById('f-dateOfDeath-help')!;
    input.value = '2026-05-01';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    expect(help.textContent).toBe('Determina las normas que se aplican. Fecha elegida: 1 de mayo de 2026.');
    input.value = '2027-12-31';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    expect(help.textContent).toBe(
      'Determina las normas que se aplican. Fecha elegida: 31 de diciembre de 2027.',
    );
    expect(help.querySelectorAll('b')).toHaveLength(1);
    input.value = '';
    input.dispatchEvent(new Event('input', { bubbles: true }));
    expect(help.textContent).toBe('Determina las normas que se aplican.');
    // Other fields are left alone.
    const other = document.getElementById('f-other') as HTMLInputElement;
    other.value = '2026-05-01';
    other.dispatchEvent(new Event('input', { bubbles: true }));
    expect(document.getElementById('f-other-help')!.textContent).toBe('Otra ayuda.');
  });
});
