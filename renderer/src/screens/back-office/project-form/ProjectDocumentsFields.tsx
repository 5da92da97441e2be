// A project's documents, any number of them, and its one location file (KML), each added and
// removed with its own button.
import { emptyDocument, type ProjectForm } from '../projectForm';
import { DocumentFields } from './DocumentFields';

export function ProjectDocumentsFields({ form, set }: { form: ProjectForm; set: (patch: Partial<ProjectForm>) => void }) {
  return (
    <>
      <fieldset className="span-all form">
        <legend>Documents</legend>
        {form.documentation.map((d, i) => (
          <DocumentFields
            key={i}
            label={`Document ${i + 1}`}
            document={d}
            onChange={(next) => set({ documentation: form.documentation.map((x, j) => (j === i ? next : x)) })}
            onRemove={() => set({ documentation: form.documentation.filter((_, j) => j !== i) })}
          />
        ))}
        <div>
          <button
            type="button"
            className="button button-small"
            onClick={() => set({ documentation: [...form.documentation, emptyDocument()] })}
          >
            Add a document
          </button>
        </div>
      </fieldset>
      <fieldset className="span-all form">
        <legend>Location file (KML)</legend>
        {form.kmlFile ? (
          <DocumentFields
            label="KML file"
            document={form.kmlFile}
            onChange={(next) => set({ kmlFile: next })}
            onRemove={() => set({ kmlFile: null })}
          />
        ) : (
          <div>
            <button type="button" className="button button-small" onClick={() => set({ kmlFile: { ...emptyDocument(), type: 'kml' } })}>
              Add a KML file
            </button>
          </div>
        )}
      </fieldset>
    </>
  );
}
