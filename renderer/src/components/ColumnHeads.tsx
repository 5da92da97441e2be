// The head of a table whose last column holds each row's buttons: that column is named "Actions"
// for screen readers only.
export function ActionsColumnHead() {
  return (
    <th scope="col">
      <span className="visually-hidden">Actions</span>
    </th>
  );
}

/** A table's head of named columns, then the actions column. */
export function ColumnHeadsWithActions({ names }: { names: string[] }) {
  return (
    <thead>
      <tr>
        {names.map((name) => (
          <th key={name} scope="col">
            {name}
          </th>
        ))}
        <ActionsColumnHead />
      </tr>
    </thead>
  );
}
