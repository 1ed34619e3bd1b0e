import type { ReactNode } from 'react';

/** One name/value row of a `<dl className="fields">`. */
export function Field({ name, children }: { name: string; children: ReactNode }) {
  return (
    <>
      <dt>{name}</dt>
      <dd>{children}</dd>
    </>
  );
}

/** A list of file paths (a compaction's or a branch summary's read/modified files) as a field; nothing when empty. */
export function FileList({ title, files }: { title: string; files: unknown }) {
  const list = (Array.isArray(files) ? files : []).filter((f): f is string => typeof f === 'string');
  if (list.length === 0) return null;
  return (
    <Field name={title}>
      <ul className="file-list">
        {list.map((f) => (
          <li key={f}>
            <code>{f}</code>
          </li>
        ))}
      </ul>
    </Field>
  );
}
