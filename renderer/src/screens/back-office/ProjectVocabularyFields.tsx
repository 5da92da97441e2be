// A project's sector, methodology and type, chosen from the registry's vocabularies
// (shared/registry/vocabulary.ts) rather than typed: each choice fills in its id and title. A draft
// holding a value from outside the vocabulary keeps it, offered as it is.
import { METHODOLOGIES, PROJECT_TYPES, SECTORS } from '@shared/registry/vocabulary';
import { Field } from '@renderer/components/Field';
import type { ProjectForm } from './projectForm';

type Option = { id: string; title: string };

const sectors: Option[] = Object.entries(SECTORS).map(([id, title]) => ({ id, title }));
const methodologies = Object.entries(METHODOLOGIES).map(([id, m]) => ({ id, title: m.title, sector: m.sector }));
const types: Option[] = Object.entries(PROJECT_TYPES).map(([id, t]) => ({ id, title: t.title }));

/** The vocabulary's options, with the current value first when it is not one of them. */
function withCurrent(options: Option[], id: string, title: string): Option[] {
  return id && !options.some((o) => o.id === id) ? [{ id, title: `${title || id} (not in the registry's list)` }, ...options] : options;
}

function Choice({
  label,
  hint,
  value,
  options,
  onChange,
}: {
  label: string;
  hint?: string;
  value: string;
  options: Option[];
  onChange: (id: string) => void;
}) {
  return (
    <Field label={label} hint={hint}>
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Choose…</option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.title} ({o.id})
          </option>
        ))}
      </select>
    </Field>
  );
}

export function ProjectVocabularyFields({ form, set }: { form: ProjectForm; set: (patch: Partial<ProjectForm>) => void }) {
  const titleOf = (options: Option[], id: string) => options.find((o) => o.id === id)?.title ?? '';
  // The sector chosen narrows the methodologies to its own.
  const ofSector =
    form.sectorId && SECTORS[form.sectorId as keyof typeof SECTORS]
      ? methodologies.filter((m) => m.sector === form.sectorId)
      : methodologies;
  const typeDescription = (id: string) => PROJECT_TYPES[id as keyof typeof PROJECT_TYPES]?.description ?? '';
  return (
    <>
      <Choice
        label="Sector"
        value={form.sectorId}
        options={withCurrent(sectors, form.sectorId, form.sectorTitle)}
        onChange={(id) => set({ sectorId: id, sectorTitle: titleOf(sectors, id) || form.sectorTitle })}
      />
      <Choice
        label="Methodology"
        hint={form.sectorId ? "The chosen sector's methodologies." : undefined}
        value={form.methodologyId}
        options={withCurrent(ofSector, form.methodologyId, form.methodologyTitle)}
        onChange={(id) => {
          const chosen = methodologies.find((m) => m.id === id);
          set({
            methodologyId: id,
            methodologyTitle: chosen?.title ?? form.methodologyTitle,
            ...(chosen && !form.sectorId ? { sectorId: chosen.sector, sectorTitle: titleOf(sectors, chosen.sector) } : {}),
          });
        }}
      />
      <Choice
        label="Type"
        value={form.typeId}
        options={withCurrent(types, form.typeId, form.typeTitle)}
        onChange={(id) =>
          set({
            typeId: id,
            typeTitle: titleOf(types, id) || form.typeTitle,
            // The type's own description, unless one was written for this project.
            ...(form.typeDescription === '' || form.typeDescription === typeDescription(form.typeId)
              ? { typeDescription: typeDescription(id) }
              : {}),
          })
        }
      />
    </>
  );
}
