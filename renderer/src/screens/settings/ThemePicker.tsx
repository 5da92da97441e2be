// Light, dark, or follow the system.
import type { Theme } from '@shared/desk/api';
import { useSettings } from '@renderer/stores/settings';
import { useAction } from '@renderer/components/useAction';
import { ErrorMessage } from '@renderer/components/feedback';

const THEMES: Array<{ value: Theme; label: string }> = [
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
  { value: 'system', label: 'Same as system' },
];

export function ThemePicker() {
  const theme = useSettings((s) => s.theme);
  const save = useAction((next: Theme) => useSettings.getState().save({ theme: next }));
  return (
    <>
      <fieldset className="segmented">
        <legend>Theme</legend>
        {THEMES.map((t) => (
          <label key={t.value} className={theme === t.value ? 'segment segment-on' : 'segment'}>
            <input type="radio" name="theme" value={t.value} checked={theme === t.value} onChange={() => void save.run(t.value)} />
            {t.label}
          </label>
        ))}
      </fieldset>
      <ErrorMessage error={save.error ? `The theme was not saved: ${save.error}` : null} />
    </>
  );
}
