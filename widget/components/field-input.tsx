import type { JSX } from 'preact';
import type { Field } from '../fields.ts';

/** One labelled control; its hint and error are tied to it with aria-describedby. */
export function FieldInput(props: {
  field: Field;
  value: unknown;
  error?: string;
  onInput: (v: unknown) => void;
}) {
  const { field, value, error, onInput } = props;
  const id = `f-${field.name}`;
  const describedBy =
    [field.hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    'aria-describedby': describedBy,
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
        <option value="">Choose…</option>
        {field.options?.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  } else if (field.kind === 'boolean') {
    control = (
      <input
        {...common}
        type="checkbox"
        checked={value === true}
        onChange={(e) => onInput(e.currentTarget.checked)}
      />
    );
  } else {
    const numeric = field.kind === 'money' || field.kind === 'number';
    control = (
      <input
        {...common}
        type={field.kind === 'date' ? 'date' : 'text'}
        inputMode={numeric ? 'decimal' : undefined}
        autoComplete="off"
        required={field.required}
        value={String(value ?? '')}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
    );
  }
  return (
    <div class={`field field-${field.kind}`}>
      <label for={id}>
        {field.label}
        {field.kind === 'money' ? ' ($)' : ''}
        {field.required ? '' : <span class="optional"> (optional)</span>}
      </label>
      {control}
      {field.hint && (
        <p class="hint" id={`${id}-hint`}>
          {field.hint}
        </p>
      )}
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
