// A new operator from the public key file the operator sent: the form had only a text area, so a
// .pem file had to be opened and pasted. The file is read into the key field; a private key file is
// refused without showing or keeping it. Problems stand beside their fields, and go as soon as the
// field is fixed. A key the registry would refuse (under 2048 bits, not RSA) is refused before the
// review, in words: it passed the review and was refused only once sent. Registering an app takes a
// public key too, and is reviewed the same way (it registered at the first click, with its
// problems said one at a time under the form and a 1024-bit key let through to the registry).
import { afterEach, beforeEach, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { CreateOperatorDialog } from '@renderer/screens/back-office/OperatorsScreen';
import { RegisterAppDialog } from '@renderer/screens/back-office/RegisterAppDialog';
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

// Real keys (made with openssl): an RSA key of 2048 bits, one of 1024, an Ed25519 key.
const PUBLIC = `-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAo3MsGk7tIVdnuLQUR1Xs
dfTCI62BKSx9ZVWOxafC3n5WAaUmS6eEx1LLrQBZMWEYtfRXmFXPrBhg/J6ZiVT1
8CDtovSN8n+mQYyvcjL6XqcMPbm0omPa3O6fDlWdfRF0VmjyPp3Kx0kW3zGOsbsV
KZBEoOc6vGH0MHnOseMiy+uKk/F64kUnvD9gzcJqOv6B+D1D658OSrdmGSzItDN3
0460GHxeHBnkgwx3Nwhu9yHCTDQ7agqjZAB/Ho0nu7lw8VJ0ME7g/nAMb8u94KFw
AZg6TXWohxU/f/ESA0MTOrC+QEKwZQjb1bt6zXdcwe5fZNVRJuJYiqbSXp9fOz0r
ewIDAQAB
-----END PUBLIC KEY-----`;
const RSA_1024 = `-----BEGIN PUBLIC KEY-----
MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDZwYkwlO3wWs6TmC+BgJhguJx8
gQ9sTEkF0baxV9BEknoQM8TBf4Oh71+6xV/d+XXo5bT6HyqAlvyC+6h3tUk4tBzU
KKEq01uj6dhiYFJ9V1QI+EYaUq4duvrs6p/VCvnmWvzGCm7L201lgt0Ve+ki7Zue
zy6AujMCPPx+L61StQIDAQAB
-----END PUBLIC KEY-----`;
const ED25519 = `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEAs+fECubD0XFub6NkSjHvRRY/cyhGQ+YC5SY6r0aX/ek=
-----END PUBLIC KEY-----`;
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

  // fixed, the problem goes at once (it stayed until the next "Review")
  await name.fill('Ada Operator');
  await expect.element(name).not.toHaveAttribute('aria-invalid');
  await expect.element(name).not.toHaveAccessibleDescription(/Enter the operator’s name/);

  // keys the registry refuses are refused here, beside the key, in words
  await key.fill(RSA_1024);
  await dialog.getByRole('button', { name: 'Review' }).click();
  await expect.element(key).toHaveFocus();
  await expect.element(key).toHaveAccessibleDescription(/This RSA key has 1024 bits; the registry takes 2048 bits or more\.$/);
  await key.fill(ED25519);
  await expect.element(key).toHaveAccessibleDescription(/This is not an RSA key \(an Ed25519 or EC key, for example\)/);
  await key.fill(PUBLIC.replace('ewIDAQAB', ''));
  await expect.element(key).toHaveAccessibleDescription(/This public key cannot be read/);
  await key.fill(PUBLIC);
  await expect.element(key).not.toHaveAttribute('aria-invalid');
  await dialog.getByRole('button', { name: 'Review' }).click();
  await expect.element(page.getByRole('dialog', { name: 'Review the new operator' })).toBeVisible();
  expect(desk.calls.filter((c) => c.method === 'backOffice.write')).toEqual([]);
});

it('going back after the registry refused a key: another key reviewed no longer shows the old refusal', async () => {
  const refusal = 'publicKeyPem: this key is already the key of operator Ben Operator';
  desk.answer('backOffice.write', () => ({ outcome: 'refused', status: 409, message: refusal }) as never);
  render(<CreateOperatorDialog onClose={() => {}} />);
  const form = page.getByRole('dialog', { name: 'New operator' });
  await form.getByLabelText('Name').fill('Ada Operator');
  await form.getByLabelText('Public key (PEM)').fill(PUBLIC);
  await form.getByRole('button', { name: 'Review' }).click();
  const review = page.getByRole('dialog', { name: 'Review the new operator' });
  await review.getByRole('button', { name: 'Create operator' }).click();
  await expect.element(review.getByText(/^Refused: /)).toHaveTextContent(/already the key of operator Ben Operator/);

  await review.getByRole('button', { name: 'Back' }).click();
  const key = page.getByRole('dialog', { name: 'New operator' }).getByLabelText('Public key (PEM)');
  await key.fill(PUBLIC.replace('ewIDAQAB', 'ewIDAQAB\n'));
  await page.getByRole('dialog', { name: 'New operator' }).getByRole('button', { name: 'Review' }).click();
  await expect.element(page.getByRole('dialog', { name: 'Review the new operator' })).toBeVisible();
  expect(document.body.textContent).not.toContain('Ben Operator');
  expect(page.getByText(/^Refused: /).query()).toBeNull();
});

it('registers an app only after a review, with its problems beside their fields', async () => {
  desk.answer('backOffice.write', () => ({ outcome: 'done', data: { id: 'app-9', name: 'Harbour Market', nameId: 'harbour-market' } }));
  render(<RegisterAppDialog onClose={() => {}} />);
  const dialog = page.getByRole('dialog', { name: 'Register an app' });
  const name = dialog.getByLabelText('App name');
  const shortName = dialog.getByLabelText('Short name (optional)');
  const key = dialog.getByLabelText('Public key (PEM)');

  await shortName.fill('Harbour Market');
  await key.fill(RSA_1024);
  await dialog.getByRole('button', { name: 'Review' }).click();
  await expect.element(name).toHaveFocus();
  await expect.element(name).toHaveAccessibleDescription('Give the app a name.');
  await expect.element(shortName).toHaveAccessibleDescription(/Use 2 to 63 lowercase letters, digits and dashes/);
  await expect.element(key).toHaveAccessibleDescription(/This RSA key has 1024 bits; the registry takes 2048 bits or more\.$/);

  await name.fill('Harbour Market');
  await shortName.fill('');
  await key.fill(PUBLIC);
  await dialog.getByRole('button', { name: 'Review' }).click();
  const review = page.getByRole('dialog', { name: 'Review the new app' });
  await expect.element(review).toHaveTextContent(/Harbour Market.*Short name\s*made from the name.*Examiner rights\s*not granted/);
  expect(desk.calls.filter((c) => c.method === 'backOffice.write')).toEqual([]);

  await review.getByRole('button', { name: 'Register app' }).click();
  const done = page.getByRole('dialog', { name: 'App registered' });
  await expect.element(done).toHaveTextContent(/Short name harbour-market; its id, for the app’s configuration: app-9/);
  expect(desk.calls.filter((c) => c.method === 'backOffice.write')).toHaveLength(1);
});
