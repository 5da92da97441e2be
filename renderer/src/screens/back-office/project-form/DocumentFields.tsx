// One document of a project (or its KML file): name, kind, URL and whether it is public, in a
// group named for it, with its own "Remove" button.
import { Field } from '@renderer/components/Field';
import type { DocumentForm } from '../projectForm';

export function DocumentFields({
  label,
  document,
  onChange,
  onRemove,
}: {
  label: string;
  document: DocumentForm;
  onChange: (next: DocumentForm) => void;
  onRemove: () => void;
}) {
  return (
    <div className="form-inline" role="group" aria-label={label}>
      <Field label="Name">
        <input value={document.name} onChange={(e) => onChange({ ...document, name: e.target.value })} />
      </Field>
      <Field label="Kind" hint="e.g. monitoringReport">
        <input value={document.type} size={14} onChange={(e) => onChange({ ...document, type: e.target.value })} />
      </Field>
      <Field label="URL">
        <input type="url" value={document.uri} onChange={(e) => onChange({ ...document, uri: e.target.value })} />
      </Field>
      <label className="checkbox">
        <input type="checkbox" checked={document.isPublic} onChange={(e) => onChange({ ...document, isPublic: e.target.checked })} />
        <span>Public</span>
      </label>
      <button type="button" className="button button-small" onClick={onRemove}>
        Remove {label.toLowerCase()}
      </button>
    </div>
  );
}
