/** Small shared pieces: error boxes, labelled fields, data tables that collapse to cards on phones. */
import { Fragment, type ComponentChildren } from 'preact';
import type { ErrorBody } from './api.js';
import { plainFix } from './plain-fix.js';

export function ErrorBox({ error, title }: { error: ErrorBody | undefined; title?: string }) {
  if (!error) return null;
  return (
    <div class="error" role="alert">
      <p>
        <strong>{title ?? 'Error'}:</strong> {error.message}
        {error.venue_code !== undefined ? (
          <span class="muted"> (venue code {String(error.venue_code)})</span>
        ) : null}
      </p>
      {plainFix(error) ? (
        <p class="fix">
          <strong>Fix:</strong> {plainFix(error)}
        </p>
      ) : null}
    </div>
  );
}

export function ErrorList({ errors, label }: { errors: ErrorBody[]; label: string }) {
  if (errors.length === 0) return null;
  return (
    <div class="error" role="alert" aria-label={label}>
      <ul>
        {errors.map((e, i) => (
          <li key={`${e.code}-${i}`}>
            {e.message}
            {plainFix(e) ? (
              <>
                {' '}
                <span class="fix">
                  <strong>Fix:</strong> {plainFix(e)}
                </span>
              </>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

export interface Column<T> {
  label: string;
  cell: (row: T) => ComponentChildren;
  numeric?: boolean;
}

/**
 * A table whose rows become labelled cards below 700 px (see app.css). `detail`: a row's own
 * full-width row beneath it (e.g. an inline form), so it never squeezes the row's cells.
 */
export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  empty,
  detail,
}: {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  empty: string;
  detail?: (row: T) => ComponentChildren;
}) {
  if (rows.length === 0) return <p class="muted">{empty}</p>;
  return (
    <table class="data">
      <caption class="sr-only">{caption}</caption>
      <thead>
        <tr>
          {columns.map((c) => (
            <th scope="col" key={c.label} class={c.numeric ? 'num' : undefined}>
              {c.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => {
          const more = detail?.(r);
          return (
            <Fragment key={rowKey(r)}>
              <tr>
                {columns.map((c) => (
                  <td key={c.label} data-label={c.label} class={c.numeric ? 'num' : undefined}>
                    {c.cell(r)}
                  </td>
                ))}
              </tr>
              {more ? (
                <tr class="detail-row">
                  <td colSpan={columns.length}>{more}</td>
                </tr>
              ) : null}
            </Fragment>
          );
        })}
      </tbody>
    </table>
  );
}

export function Section({ title, id, children }: { title: string; id: string; children: ComponentChildren }) {
  return (
    <section class="card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{title}</h2>
      {children}
    </section>
  );
}

/** A labelled text (or, `secret`, password) input, the label wrapping it as in every form of the page. */
export function TextField({
  id,
  label,
  value,
  onInput,
  secret,
  ...input
}: {
  id: string;
  label: ComponentChildren;
  value: string;
  onInput: (value: string) => void;
  secret?: boolean;
  autocomplete?: string;
  spellcheck?: boolean;
  inputMode?: 'decimal';
  placeholder?: string;
  disabled?: boolean;
}) {
  const props = {
    id,
    ...input,
    value,
    onInput: (e: { currentTarget: HTMLInputElement }) => onInput(e.currentTarget.value),
  };
  return (
    <label for={id}>
      {label}
      {secret ? <input type="password" {...props} /> : <input {...props} />}
    </label>
  );
}

/** A labelled checkbox, the label after it. */
export function CheckField({
  id,
  label,
  checked,
  onChange,
}: {
  id: string;
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label class="check" for={id}>
      <input id={id} type="checkbox" checked={checked} onChange={(e) => onChange(e.currentTarget.checked)} />
      {label}
    </label>
  );
}
