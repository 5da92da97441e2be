// The back office's Projects (operator), Apps and installations, and Audit log screens against the
// desk's embedded registry (its local administrator): a draft made with every kind of field, edited,
// moved through an allowed status change with a comment the history keeps; an app registered with
// its public key, installed with permission levels, suspended, resumed, given examiner rights and
// removed; the audit log filtered, an entry opened in the desk, and its CSV read back against the
// list shown. Screenshots of each screen in both themes; the flows use the keyboard where it matters
// and the screens are checked at 1024 px. Against a second, remote registry (an operator key added to
// the connection): an app installed and a vintage issued, each exactly once.
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from '@playwright/test';
import { csvRecords } from './csv';
import { expect, screenshotBothThemes, test } from './fixtures';
import { downloadText } from './helpers';
import { REGISTRY_DB_FILE } from '@registry/open';

function backOffice(app: Page, screen: string) {
  return app.getByRole('navigation', { name: 'Back office' }).getByRole('button', { name: screen, exact: true }).click();
}

/** At 1024 px wide nothing scrolls sideways; the usual size is put back after. */
async function expectNoHorizontalScrollAt1024(app: Page) {
  await app.setViewportSize({ width: 1024, height: 800 });
  expect(await app.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await app.setViewportSize({ width: 1440, height: 900 });
}

/** Projects of that name in the embedded registry's database. */
function draftsNamed(dataDir: string, name: string): number {
  const db = new Database(join(dataDir, 'embedded-registry', REGISTRY_DB_FILE), { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM projects WHERE full_name = ?').get(name) as { n: number }).n;
  } finally {
    db.close();
  }
}

/** Suspends or resumes an installation: its dialog says what changes, then the change is confirmed. */
async function changeInstallation(app: Page, verb: 'Suspend' | 'Resume', organizationName: string) {
  await app.getByRole('button', { name: `${verb} the installation for ${organizationName}` }).click();
  const dialog = app.getByRole('dialog', { name: `${verb} the installation for ${organizationName}?` });
  await expect(dialog).toContainText(verb === 'Suspend' ? 'Active → Suspended' : 'Suspended → Active');
  await dialog.getByRole('button', { name: `${verb} installation` }).click();
  // once done, titled by what was done, no longer the question
  const done = app.getByRole('dialog', { name: `Installation for ${organizationName} ${verb === 'Suspend' ? 'suspended' : 'resumed'}` });
  await expect(done.getByRole('status').filter({ hasText: 'Done' })).toBeVisible();
  await done.locator('.actions').getByRole('button', { name: 'Close' }).click();
}

test('projects, apps and the audit log of the embedded registry', async ({ app, desk }) => {
  test.setTimeout(300_000);
  // ---- Projects (operator): a new draft with every kind of field ----
  await backOffice(app, 'Projects (operator)');
  await expect(app.getByRole('heading', { level: 1, name: 'Projects (operator)' })).toBeVisible();
  await expect(app.getByRole('table', { name: 'Projects of every status' })).toBeVisible();
  await app.getByRole('combobox', { name: 'Status' }).selectOption('draft');
  await expect(app.getByRole('table', { name: 'Draft projects' }).getByRole('row').nth(1)).toContainText('Draft');

  await app.getByRole('button', { name: 'New draft project' }).click();
  const form = app.getByRole('dialog', { name: 'New draft project' });
  await form.getByLabel('Project name').fill('Lamu Mangroves');
  await form.getByLabel('Short description').fill('Mangrove restoration');
  await form.getByLabel('Description', { exact: true }).fill('Restores 400 ha of mangroves.');
  await form.getByLabel('Start date').fill('2024-01-01');
  await form.getByLabel('Crediting period start').fill('2024-06-01');
  await form.getByLabel('Estimated annual mitigations (tCO2e)').fill('1200\n1300');
  await form.getByLabel('Country', { exact: true }).selectOption('KE');
  await form.getByLabel('City').fill('Lamu');
  await form.getByLabel('Latitude').fill('-2.27');
  await form.getByLabel('Longitude').fill('40.9');
  // sector, methodology and type are chosen from the registry's vocabularies, not typed
  await form.getByLabel('Sector', { exact: true }).selectOption('coastal');
  await form.getByLabel('Methodology', { exact: true }).selectOption('RDR-WRC-003');
  await form.getByLabel('Type', { exact: true }).selectOption('removal');
  await form.getByLabel('Proponent organization (owner)').selectOption({ index: 1 });
  await form.getByLabel('Validators').selectOption({ index: 0 });
  await form.getByRole('button', { name: 'Add a document' }).click();
  const doc = form.getByRole('group', { name: 'Document 1' });
  await doc.getByLabel('Name').fill('Project design');
  await doc.getByLabel('Kind').fill('projectDesign');
  await doc.getByLabel('URL').fill('https://example.org/pdd.pdf');
  await form.getByRole('button', { name: 'Add a benefit' }).click();
  await form.getByRole('group', { name: 'Benefit 1' }).getByLabel('Title').fill('Fish nurseries');
  // reviewed before anything is sent, like every other write
  await form.getByRole('button', { name: 'Review' }).click();
  const draftReview = app.getByRole('dialog', { name: 'Review the new draft project' });
  await expect(draftReview).toContainText('Lamu Mangroves');
  await expect(draftReview).toContainText('Kenya (KE)');
  await expect(draftReview).toContainText('Tidal wetland and seagrass restoration (RDR-WRC-003)');
  expect(draftsNamed(desk.dataDir, 'Lamu Mangroves')).toBe(0);
  await draftReview.getByRole('button', { name: 'Create draft' }).click();
  // once made, titled and worded as done (it kept "Review …" and "The registry will create …")
  await expect(app.getByRole('dialog', { name: 'Draft project created' })).toContainText('The registry created this project as a draft');
  expect(draftsNamed(desk.dataDir, 'Lamu Mangroves')).toBe(1);
  await app.getByRole('dialog', { name: 'Draft project created' }).locator('.actions').getByRole('button', { name: 'Close' }).click();

  const panel = app.getByRole('complementary', { name: 'Project details' });
  await expect(panel.getByRole('heading', { level: 2 })).toContainText('Lamu Mangroves');
  await expect(panel).toContainText('Project design');
  await expect(panel).toContainText('-2.27, 40.9');
  await expect(panel).toContainText('Fish nurseries');
  // only the changes the registry allows from draft are offered
  const changes = panel.getByRole('group', { name: 'Status changes' });
  await expect(changes.getByRole('button', { name: 'Submit' })).toBeVisible();
  await expect(changes.getByRole('button', { name: 'Withdraw' })).toBeVisible();
  await expect(changes.getByRole('button', { name: 'Validate' })).toHaveCount(0);
  await expect(changes.getByRole('button', { name: 'Register' })).toHaveCount(0);

  // edit the draft: a new name, a KML file, no city
  await changes.getByRole('button', { name: 'Edit draft' }).click();
  const edit = app.getByRole('dialog', { name: /^Edit draft/ });
  await edit.getByLabel('Project name').fill('Lamu Mangroves II');
  await edit.getByLabel('City').fill('');
  await edit.getByRole('button', { name: 'Add a KML file' }).click();
  const kml = edit.getByRole('group', { name: 'KML file' });
  await kml.getByLabel('Name').fill('Project area');
  await kml.getByLabel('URL').fill('https://example.org/area.kml');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit.getByRole('status').filter({ hasText: 'Done' })).toBeVisible();
  await edit.locator('form .actions').getByRole('button', { name: 'Close' }).click();
  await expect(panel.getByRole('heading', { level: 2 })).toContainText('Lamu Mangroves II');
  await expect(panel).toContainText('Project area');

  // submit it, with the comment the history keeps (typed and confirmed from the keyboard)
  await changes.getByRole('button', { name: 'Submit' }).click();
  const submit = app.getByRole('dialog', { name: /^Submit:/ });
  await submit.getByRole('button', { name: 'Submit' }).click();
  await expect(submit.getByText('Write a comment: say why the status changes.')).toBeVisible();
  await submit.getByLabel('Comment').fill('Design document reviewed');
  await app.keyboard.press('Tab');
  await app.keyboard.press('Tab');
  await expect(submit.getByRole('button', { name: 'Submit' })).toBeFocused();
  await app.keyboard.press('Enter');
  const submitted = app.getByRole('dialog', { name: /^Submitted:/ });
  await expect(submitted.getByRole('status').filter({ hasText: 'Done' })).toBeVisible();
  await submitted.locator('form .actions').getByRole('button', { name: 'Close' }).click();
  await expect(panel.getByRole('list', { name: 'Status history' })).toContainText('Draft → Submitted');
  await expect(panel.getByRole('list', { name: 'Status history' })).toContainText('Design document reviewed');
  await expect(changes.getByRole('button', { name: 'Validate' })).toBeVisible();
  await expect(changes.getByRole('button', { name: 'Edit draft' })).toHaveCount(0);
  await screenshotBothThemes(app, 'back-office-projects');
  await expectNoHorizontalScrollAt1024(app);

  // ---- Apps and installations ----
  await backOffice(app, 'Apps and installations');
  await expect(app.getByRole('heading', { level: 1, name: 'Apps and installations' })).toBeVisible();
  // the register button is reached and pressed from the keyboard
  const register = app.getByRole('button', { name: 'Register app' });
  await register.focus();
  await app.keyboard.press('Enter');
  const registerForm = app.getByRole('dialog', { name: 'Register an app' });
  await expect(registerForm.getByLabel('App name')).toBeFocused();
  await app.keyboard.type('Harbour Market');
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  await registerForm.getByLabel('Public key (PEM)').fill(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  await registerForm.getByRole('button', { name: 'Review' }).click();
  await app.getByRole('dialog', { name: 'Review the new app' }).getByRole('button', { name: 'Register app' }).click();
  await app.getByRole('dialog', { name: 'App registered' }).locator('.actions').getByRole('button', { name: 'Close' }).click();

  const card = app.getByRole('region', { name: 'Harbour Market' });
  await expect(card).toContainText('examiner rights: not granted');
  await card.getByRole('button', { name: 'Install for an organization' }).click();
  const install = app.getByRole('dialog', { name: 'Install Harbour Market' });
  await install.getByLabel('Organization', { exact: true }).selectOption({ index: 1 });
  const organizationName = (await install.getByLabel('Organization', { exact: true }).locator('option:checked').textContent())!;
  await install.getByLabel('Organization warehouse').selectOption('WRITE');
  await install.getByLabel('Organization inventory').selectOption('REQUEST');
  await install.getByRole('button', { name: 'Review' }).click();
  const installReview = app.getByRole('dialog', { name: 'Review the installation of Harbour Market' });
  await expect(installReview).toContainText(organizationName);
  await expect(installReview).toContainText('Can change');
  await installReview.getByRole('button', { name: 'Install' }).click();
  const installed = app.getByRole('dialog', { name: 'Harbour Market installed' });
  await expect(installed.getByRole('status').filter({ hasText: 'Done' })).toBeVisible();
  await installed.locator('.actions').getByRole('button', { name: 'Close' }).click();

  const installations = card.getByRole('table', { name: 'Installations of Harbour Market' });
  const row = installations.getByRole('row').filter({ hasText: organizationName });
  await expect(row).toContainText('Organization warehouse: can change');
  await expect(row).toContainText('Organization inventory: can request');
  await expect(row).toContainText('Active');
  await changeInstallation(app, 'Suspend', organizationName);
  await expect(row).toContainText('Suspended');
  await changeInstallation(app, 'Resume', organizationName);
  await expect(row).toContainText('Active');
  await card.getByRole('button', { name: 'Grant examiner rights' }).click();
  await app.getByRole('dialog').getByRole('button', { name: 'Grant examiner rights' }).click();
  await app.getByRole('dialog').getByRole('button', { name: 'Close', exact: true }).click();
  await expect(card).toContainText('examiner rights: granted');
  await screenshotBothThemes(app, 'back-office-apps');
  await row.getByRole('button', { name: `Remove the installation for ${organizationName}` }).click();
  await app
    .getByRole('dialog', { name: /^Remove the installation/ })
    .getByRole('button', { name: 'Remove installation' })
    .click();
  await expect(card).toContainText('Not installed for any organization.');

  // ---- Audit log: filtered, an entry opened in the desk, the CSV of exactly the list ----
  await backOffice(app, 'Audit log');
  await expect(app.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  const entries = app.getByRole('table', { name: 'Audit entries' });
  await app.getByRole('combobox', { name: 'Action' }).selectOption('installations.setStatus');
  await app.getByRole('combobox', { name: 'Outcome' }).selectOption('succeeded');
  await expect(entries.locator('tbody tr[data-audit-id]')).toHaveCount(2);
  const shown = await entries.locator('tbody tr[data-audit-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-audit-id')));
  const { filename, text } = await downloadText(app, app.getByRole('button', { name: 'Export CSV' }));
  expect(filename).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
  const records = csvRecords(text);
  expect(records.map((r) => r.Id)).toEqual(shown);
  expect(records.every((r) => r.Action === 'installations.setStatus' && r.Outcome === 'succeeded')).toBe(true);

  // a date range that ends before today holds nothing; cleared, the status change of the project is found
  await app.getByLabel('To (inclusive)').fill('2020-01-01');
  await expect(entries).toContainText('No entry matches');
  await app.getByRole('button', { name: 'Clear filters' }).click();
  await app.getByRole('combobox', { name: 'Action' }).selectOption('projects.setStatus');
  const statusEntry = entries.locator('tbody tr[data-audit-id]').first();
  await expect(statusEntry).toContainText('Design document reviewed');
  await screenshotBothThemes(app, 'back-office-audit');
  await expectNoHorizontalScrollAt1024(app);
  await statusEntry.getByRole('button', { name: /^Project / }).click();
  await expect(app.getByRole('heading', { level: 1, name: 'Projects (operator)' })).toBeVisible();
  await expect(app.getByRole('complementary', { name: 'Project details' }).getByRole('heading', { level: 2 })).toContainText(
    'Lamu Mangroves II',
  );
});

test.describe('against a remote registry', () => {
  test.use({ deskOptions: { registry: 'remote', scale: 1 } });

  test('installs an app and issues a vintage with an operator key added to the connection', async ({ app, desk }) => {
    const registry = desk.registry!;
    const credentialsFile = readFileSync(join(registry.dataDir, 'demo-credentials.json'), 'utf8');
    const administrator = JSON.parse(credentialsFile) as { operators: { id: string; role: string }[] };
    const operator = administrator.operators.find((o) => o.role === 'administrator')!;
    // What Settings' add-connection form does with the two key files the user picks: each goes to
    // the desk unread (a handle comes back), then the connection is added and used. Both are the
    // demo registry's demo-credentials.json itself: the app's key, and the named operator's.
    const added = await app.evaluate(
      async ({ url, appId, appKey, operatorId, operatorKey }) => {
        const csrf = localStorage.getItem('registry-desk.csrf') ?? '';
        const importKey = async (pem: string, name: string) => {
          const response = await fetch('/api/keys/import', {
            method: 'POST',
            headers: { 'content-type': 'application/octet-stream', 'x-desk-filename': name, 'x-desk-csrf': csrf },
            body: pem,
          });
          return ((await response.json()) as { value: { handle: string } }).value.handle;
        };
        const invoke = async (method: string, input: unknown) => {
          const response = await fetch(`/api/invoke/${method}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-desk-csrf': csrf },
            body: JSON.stringify(input),
          });
          return (await response.json()) as { ok: boolean; value?: { id: string }; error?: { message: string } };
        };
        const result = await invoke('connections.addRemote', {
          name: 'Remote back office',
          baseUrl: url,
          appId,
          keyHandle: await importKey(appKey, 'demo-credentials.json'),
          operator: { id: operatorId, keyHandle: await importKey(operatorKey, 'demo-credentials.json') },
          encryptedFileFallback: { passphrase: 'remote operator e2e', userConfirmed: true },
        });
        if (!result.ok) return result;
        return invoke('connections.activate', { id: result.value!.id });
      },
      {
        url: registry.url,
        appId: registry.credentials.app.id,
        appKey: credentialsFile,
        operatorId: operator.id,
        operatorKey: credentialsFile,
      },
    );
    expect(added).toMatchObject({ ok: true });

    await backOffice(app, 'Apps and installations');
    await expect(app.getByText(/^Acting as/)).toContainText('· Administrator');
    const card = app.getByRole('region', { name: registry.credentials.app.name });
    await card.getByRole('button', { name: 'Install for an organization' }).click();
    const install = app.getByRole('dialog', { name: `Install ${registry.credentials.app.name}` });
    await install.getByLabel('Organization', { exact: true }).selectOption({ index: 1 });
    const organizationId = await install.getByLabel('Organization', { exact: true }).inputValue();
    await install.getByLabel('Organization info').selectOption('VIEW');
    await install.getByRole('button', { name: 'Review' }).click();
    const review = app.getByRole('dialog', { name: `Review the installation of ${registry.credentials.app.name}` });
    await review.getByRole('button', { name: 'Install' }).click();
    const installed = app.getByRole('dialog', { name: `${registry.credentials.app.name} installed` });
    await expect(installed.getByRole('status').filter({ hasText: 'Done' })).toBeVisible();
    await installed.locator('.actions').getByRole('button', { name: 'Close' }).click();

    // exactly one installation of that app for that organization, on the remote registry
    const db = new Database(join(registry.dataDir, REGISTRY_DB_FILE), { readonly: true });
    try {
      const rows = db
        .prepare('SELECT permissions, status FROM installations WHERE app_id = ? AND organization_id = ?')
        .all(registry.credentials.app.id, organizationId) as { permissions: string; status: string }[];
      expect(rows).toEqual([{ permissions: JSON.stringify({ organization_info: 'VIEW' }), status: 'active' }]);
    } finally {
      db.close();
    }
    await expect(card.getByRole('table', { name: `Installations of ${registry.credentials.app.name}` })).toContainText(
      'Organization info: can view',
    );

    // Issuance on the same remote registry, as its administrator: reviewed (the remote registry's dry
    // run, nothing written), then confirmed once; the remote registry holds exactly that one credit.
    const remote = new Database(join(registry.dataDir, REGISTRY_DB_FILE), { readonly: true });
    try {
      const project = remote
        .prepare(
          `SELECT p.id FROM projects p JOIN organizations o ON o.id = p.organization_id
           WHERE p.status IN ('validated', 'registered') AND o.is_verified = 1 ORDER BY p.full_name LIMIT 1`,
        )
        .get() as { id: string };
      const verifier = remote
        .prepare("SELECT id FROM organizations WHERE type = 'validationVerificationBody' ORDER BY full_name LIMIT 1")
        .get() as { id: string };
      const issued = () =>
        (remote.prepare("SELECT COUNT(*) AS n FROM credits WHERE project_id = ? AND vintage = '2032'").get(project.id) as { n: number }).n;
      await backOffice(app, 'Issuance');
      const issuance = app.getByRole('form', { name: 'Issuance' });
      await issuance.getByLabel('Project').selectOption(project.id);
      await issuance.getByLabel('Vintage').fill('2032');
      await issuance.getByLabel('Amount (tonnes)').fill('500');
      await issuance.getByLabel('Verification body').selectOption(verifier.id);
      await issuance.getByRole('button', { name: 'Review issuance' }).click();
      await expect(app.getByTestId('ledger-preview')).toContainText('new: created by this issuance');
      expect(issued()).toBe(0);
      await app.getByRole('button', { name: 'Issue 500 t' }).click();
      await expect(app.getByRole('status').filter({ hasText: 'Done' })).toBeVisible();
      expect(issued()).toBe(1);
      expect(
        (
          remote
            .prepare("SELECT COUNT(*) AS n FROM audit_log WHERE action = 'credits.issue' AND operator_id = ? AND outcome = 'succeeded'")
            .get(operator.id) as { n: number }
        ).n,
      ).toBe(1);
    } finally {
      remote.close();
    }
  });
});
