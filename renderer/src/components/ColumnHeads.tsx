// The head of a table whose last column holds each row's buttons: its named columns, then that
// column, named "Actions" for screen readers only.
export function ColumnHeadsWithActions({ names }: { names: string[] }) {
  return (
    <thead>
      <tr>
        {names.map((name) => (
          <th key={name} scope="col">
            {name}
          </th>
        ))}
        <th scope="col">
          <span className="visually-hidden">Actions</span>
        </th>
      </tr>
    </thead>
  );
}
