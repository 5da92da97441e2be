// A form's problems, as the user must fix them before anything is sent: one item each, in an alert
// so they are heard when they appear. Nothing when there are none.
export function ProblemList({ problems, className }: { problems: readonly string[]; className?: string }) {
  if (problems.length === 0) return null;
  return (
    <div className={className ? `${className} error-message` : 'error-message'} role="alert">
      <ul className="plain-list">
        {problems.map((problem) => (
          <li key={problem}>{problem}</li>
        ))}
      </ul>
    </div>
  );
}
