// A list filter on a yes-or-no property (verified, public): any, yes or no.
import { AnySelect } from '@renderer/components/AnySelect';

export type YesNo = '' | 'yes' | 'no';

const YES_NO = [
  ['yes', 'Yes'],
  ['no', 'No'],
] as const;

export function YesNoFilter({ label, value, onChange }: { label: string; value: YesNo; onChange: (value: YesNo) => void }) {
  return <AnySelect label={label} value={value} options={YES_NO} onChange={onChange} />;
}
