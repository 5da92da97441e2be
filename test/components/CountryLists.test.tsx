// Countries are looked for by name (issue 30): the organization form's list and the projects'
// country filter list them by the name shown, in the order of the desk's locale (en-US here:
// "Åland Islands" among the A's, not first or last), never by ISO code or by how many projects.
import { afterEach, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { CountryField } from '@renderer/screens/back-office/OrganizationFields';
import { ProjectFilters } from '@renderer/screens/projects/ProjectFilters';
import { render } from './render';
import { installScriptedBridge } from './scripted-bridge';

const desk = installScriptedBridge();
afterEach(() => desk.reset());

const optionTexts = (select: HTMLSelectElement) => [...select.options].map((o) => o.text);

it('the organization form lists countries by name in the locale’s order', async () => {
  render(<CountryField value="" onChange={() => {}} />);
  const select = page.getByLabelText('Country');
  await expect.element(select).toBeVisible();
  const options = optionTexts(select.element() as HTMLSelectElement);
  expect(options.slice(0, 4)).toEqual(['Choose…', 'Afghanistan (AF)', 'Åland Islands (AX)', 'Albania (AL)']);
  expect(options.at(-1)).toBe('Zimbabwe (ZW)');
});

it('the projects’ country filter lists countries by name, not by count or code', async () => {
  const facet = (value: string, count: number) => ({ value, label: value, count });
  const none: never[] = [];
  // As the desk orders them: most projects first, then by code (CA, CH, CL).
  const countries = [facet('KE', 9), facet('CA', 2), facet('CH', 2), facet('CL', 2), facet('AX', 1)];
  desk.answer('projects.facets', () => ({ statuses: none, countries, sectors: none, methodologies: none, types: none, vintages: none }));
  render(<ProjectFilters />);
  const select = page.getByRole('combobox', { name: 'Country' });
  await expect.element(select).toBeEnabled();
  expect(optionTexts(select.element() as HTMLSelectElement)).toEqual([
    'Any country',
    'Åland Islands (1)',
    'Canada (2)',
    'Chile (2)',
    'Kenya (9)',
    'Switzerland (2)',
  ]);
});
