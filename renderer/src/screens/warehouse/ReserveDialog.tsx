// Reserving credits from the warehouse for 10 minutes. The amount is checked exactly (integer
// grams) against what the credit has available before anything is sent.
import { useState } from 'react';
import type { WarehouseInventoryCredit } from '../../../../shared/registry/resources';
import { desk } from '../../lib/desk';
import { formatGrams, gramsOf, parseTonnes } from '../../lib/decimal';
import { Dialog } from '../../components/Dialog';
import { Field } from '../../components/Field';
import { ErrorMessage } from '../../components/feedback';
import { useAction } from '../../components/useAction';

export function amountProblem(text: string, available: number): string | null {
  const parsed = parseTonnes(text);
  if (!parsed.ok) return parsed.message;
  const availableGrams = gramsOf(available);
  if (parsed.grams > availableGrams) return `Only ${formatGrams(availableGrams)} t are available.`;
  return null;
}

export function ReserveDialog({
  organizationId,
  credit,
  onClose,
  onReserved,
}: {
  organizationId: string;
  credit: WarehouseInventoryCredit;
  onClose: () => void;
  onReserved: () => void;
}) {
  const [amount, setAmount] = useState('');
  const [touched, setTouched] = useState(false);
  const problem = amountProblem(amount, credit.amount);
  const reserve = useAction(async () => {
    const parsed = parseTonnes(amount);
    if (!parsed.ok) throw new Error(parsed.message);
    await desk('warehouse.reserve', { organizationId, creditId: credit.id, amount: parsed.tonnes });
    onReserved();
    onClose();
  });
  return (
    <Dialog title="Reserve credits" onClose={onClose}>
      <p>
        {credit.project.fullName} · <span className="mono">{credit.serialization}</span>
      </p>
      <p className="muted">
        Reserved credits are held for you for 10 minutes. Finish the reservation (transfer, or transfer and retire) before then, or they
        return to the warehouse.
      </p>
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (!problem) void reserve.run();
        }}
      >
        <Field
          label="Amount to reserve (tonnes)"
          hint={`${formatGrams(gramsOf(credit.amount))} t available`}
          error={amount || touched ? problem : null}
        >
          <input inputMode="decimal" autoFocus value={amount} onChange={(e) => setAmount(e.target.value)} />
        </Field>
        <ErrorMessage error={reserve.error ? `The reservation was not made: ${reserve.error}` : null} />
        <div className="actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={reserve.busy || (touched && problem !== null)}>
            {reserve.busy ? 'Reserving…' : 'Reserve'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
