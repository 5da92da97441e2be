// The buttons of a form's first step, in every dialog that reviews before it writes (the
// warehouse's finish, the back office's forms): "Cancel", and "Review" submitting the form.
export function ReviewFormActions({ onClose, spanAll = false }: { onClose: () => void; spanAll?: boolean }) {
  return (
    <div className={spanAll ? 'actions span-all' : 'actions'}>
      <button type="button" className="button" onClick={onClose}>
        Cancel
      </button>
      <button type="submit" className="button button-primary">
        Review
      </button>
    </div>
  );
}
