import type { JSX } from 'preact';
import type { FieldSpec } from '../forms/types.ts';
import { t } from '../i18n/t.ts';
import { formatMoneyInput } from '../validate.ts';

/** Keeps the caret after the same number of digits when a money control reformats itself. */
function reformat(input: HTMLInputElement): string {
  const caret = input.selectionStart ?? input.value.length;
  const digitsBefore = input.value.slice(0, caret).replace(/[^\d.]/g, '').length;
  const next = formatMoneyInput(input.value);
  input.value = next;
  let seen = 0;
  let at = 0;
  while (at < next.length && seen < digitsBefore) if (/[\d.]/.test(next[at++]!)) seen++;
  input.setSelectionRange(at, at);
  return next;
}

/** One labelled control; its help and error are tied to it with aria-describedby. */
export function FieldInput(props: {
  field: FieldSpec;
  value: unknown;
  error?: string | undefined;
  onInput: (v: unknown) => void;
}) {
  const { field, value, error, onInput } = props;
  const id = `f-${field.name}`;
  const describedBy = [error ? `${id}-error` : '', field.help ? `${id}-help` : ''].filter(Boolean).join(' ');
  const common = {
    id,
    name: field.name,
    'aria-describedby': describedBy || undefined,
    'aria-invalid': error ? ('true' as const) : undefined,
  };
  let control: JSX.Element;
  if (field.kind === 'select') {
    control = (
      <select
        {...common}
        required={field.required}
        value={String(value ?? '')}
        onChange={(e) => onInput(e.currentTarget.value)}
      >
        <option value="">{t(field.required ? 'Choose…' : 'Not needed')}</option>
        {field.options?.map((o) => (
          <option key={o.value} value={o.value}>
            {t(o.label)}
          </option>
        ))}
      </select>
    );
  } else if (field.kind === 'boolean') {
    return (
      <div class="field check">
        <input
          {...common}
          type="checkbox"
          checked={value === true}
          onChange={(e) => onInput(e.currentTarget.checked)}
        />
        <label for={id}>{t(field.label)}</label>
        {field.help && (
          <p class="help" id={`${id}-help`}>
            {t(field.help)}
          </p>
        )}
      </div>
    );
  } else if (field.kind === 'money') {
    control = (
      <span class="money">
        <span class="unit" aria-hidden="true">
          $
        </span>
        <input
          {...common}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          placeholder={field.example && t('e.g. {0}', field.example)}
          required={field.required}
          value={String(value ?? '')}
          onInput={(e) => onInput(reformat(e.currentTarget))}
        />
      </span>
    );
  } else {
    control = (
      <input
        {...common}
        type={field.kind === 'date' ? 'date' : 'text'}
        inputMode={field.kind === 'number' ? 'numeric' : undefined}
        min={field.kind === 'date' ? (field.min as string | undefined) : undefined}
        max={field.kind === 'date' ? (field.max as string | undefined) : undefined}
        autoComplete="off"
        placeholder={field.example && t('e.g. {0}', field.example)}
        required={field.required}
        value={String(value ?? '')}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
    );
  }
  return (
    <div class={`field ${field.kind}`}>
      <label for={id}>
        {t(field.label)}
        {!field.required && <span class="optional"> {t('optional')}</span>}
      </label>
      {control}
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {t(error)}
        </p>
      )}
      {field.help && (
        <p class="help" id={`${id}-help`}>
          {t(field.help)}
        </p>
      )}
    </div>
  );
}
