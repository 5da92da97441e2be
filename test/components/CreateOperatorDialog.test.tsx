// A new operator from the public key file the operator sent: the form had only a text area, so a
// .pem file had to be opened and pasted. The file is read into the key field; a private key file is
// refused without showing or keeping it. Problems stand beside their fields.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { CreateOperatorDialog } from '@renderer/screens/back-office/OperatorsScreen';
import { useBackOffice } from '@renderer/stores/backOffice';
import { administratorSession } from './back-office-session';
import { render } from './render';
import { installScriptedBridge } from './scripted-bridge';

const desk = installScriptedBridge();

beforeEach(() => useBackOffice.setState({ session: administratorSession }));
afterEach(() => {
  useBackOffice.setState({ session: null });
  desk.reset();
});

const PUBLIC = '-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAtest\n-----END PUBLIC KEY-----';
const PRIVATE = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCsecret\n-----END PRIVATE KEY-----';
const file = (name: string, text: string) => new File([text], name, { type: 'application/x-pem-file' });

it('reads the public key from its file, refuses a private key file, and shows problems beside their fields', async () => {
  render(<CreateOperatorDialog onClose={() => {}} />);
  const dialog = page.getByRole('dialog', { name: 'New operator' });
  const key = dialog.getByLabelText('Public key (PEM)');
  const picker = dialog.getByLabelText('Or choose the public key file');

  await picker.upload(file('ada.pem', PRIVATE));
  await expect.element(picker).toHaveAttribute('aria-invalid', 'true');
  await expect.element(picker).toHaveAccessibleDescription(/ada\.pem holds a private key: choose the public key instead/);
  await expect.element(key).toHaveValue('');
  expect(dialog.element().textContent).not.toContain('secret');

  await picker.upload(file('ada.pub.pem', PUBLIC));
  await expect.element(key).toHaveValue(PUBLIC);
  await expect.element(picker).not.toHaveAttribute('aria-invalid');

  await dialog.getByRole('button', { name: 'Review' }).click();
  const name = dialog.getByLabelText('Name');
  await expect.element(name).toHaveFocus();
  await expect.element(name).toHaveAccessibleDescription('Enter the operator’s name.');
  await expect.element(key).not.toHaveAttribute('aria-invalid');

  await name.fill('Ada Operator');
  await dialog.getByRole('button', { name: 'Review' }).click();
  await expect.element(page.getByRole('dialog', { name: 'Review the new operator' })).toBeVisible();
  expect(desk.calls.filter((c) => c.method === 'backOffice.write')).toEqual([]);
});
