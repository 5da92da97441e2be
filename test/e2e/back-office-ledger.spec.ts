// The back office's ledger screens against the embedded registry (the desk's local administrator):
// an issuance reviewed (the registry's dry run: the new serialization, the buffer share, balances
// before → after; nothing written until confirmed) and done; part of it cancelled with a reason
// (the amount typed again to confirm); then the credit's history shows both movements with who made
// them, linking to the audit entry. The registry's own database is read (read-only) to check that
// the review wrote nothing and the confirmation exactly one write. Screens in both themes at 1024 px;
// the issuance is confirmed and the history searched from the keyboard.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { test, expect, screenshotBothThemes } from './fixtures';

function openRegistryDb(dataDir: string) {
  return new Database(join(dataDir, 'embedded-registry', 'registry.sqlite'), { readonly: true, fileMustExist: true });
}

const count = (db: Database.Database, sql: string, ...args: unknown[]) => (db.prepare(sql).get(...args) as { n: number }).n;

test('issue a vintage, cancel part of it with a reason, and follow the credit history', async ({ app, desk }) => {
  const db = openRegistryDb(desk.dataDir);
  try {
    // An issuable project of a verified organization, and a verification body, as the demo made them.
    const project = db
      .prepare(
        `SELECT p.id, p.full_name, o.full_name AS org FROM projects p JOIN organizations o ON o.id = p.organization_id
         WHERE p.status IN ('validated', 'registered') AND o.is_verified = 1 ORDER BY p.full_name LIMIT 1`,
      )
      .get() as { id: string; full_name: string; org: string };
    const verifier = db
      .prepare("SELECT id, full_name FROM organizations WHERE type = 'validationVerificationBody' ORDER BY full_name LIMIT 1")
      .get() as { id: string; full_name: string };
    await app.setViewportSize({ width: 1024, height: 900 });
    let previewsBefore = 0;

    await test.step('issuance: review, nothing sent, then confirm', async () => {
      // by keyboard: the screen, the review and the confirmation, asserting where focus is each time
      await app.getByRole('navigation', { name: 'Back office' }).getByRole('button', { name: 'Issuance' }).focus();
      await app.keyboard.press('Enter');
      await expect(app.getByRole('heading', { level: 1, name: 'Issuance' })).toBeVisible();
      const form = app.getByRole('form', { name: 'Issuance' });
      await form.getByLabel('Project').selectOption(project.id);
      await form.getByLabel('Vintage').fill('2031');
      await form.getByLabel('Ex-ante').check();
      await form.getByLabel('Amount (tonnes)').fill('1,234.5');
      await expect(app.getByTestId('understood-amount')).toHaveText('Understood as 1,234.5 t.');
      await form.getByLabel('Verification body').selectOption(verifier.id);
      await form.getByLabel('Buffer share (%)').fill('10');
      const movements = count(db, 'SELECT COUNT(*) AS n FROM movements');
      const audits = count(db, 'SELECT COUNT(*) AS n FROM audit_log');
      previewsBefore = count(db, "SELECT COUNT(*) AS n FROM audit_log WHERE action LIKE 'preview.%'");
      await form.getByRole('button', { name: 'Review issuance' }).focus();
      await app.keyboard.press('Enter');
      await expect(app.getByRole('heading', { level: 2, name: /issu/i })).toBeFocused();
      const preview = app.getByTestId('ledger-preview');
      await expect(preview).toContainText('new: created by this issuance');
      // the share as en-US writes it ("10 %" was the German way)
      await expect(preview.getByTestId('buffer-share')).toContainText('123.45 t to the buffer account (10%)');
      const balances = preview.getByRole('table', { name: 'Balances before and after' });
      await expect(balances.getByRole('row', { name: /Inventory of/ })).toContainText('1,111.05 t');
      await expect(balances.getByRole('row', { name: /Buffer account/ })).toContainText('123.45 t');
      await screenshotBothThemes(app, 'back-office-issuance-review');
      // the review wrote nothing; as a dry run it leaves one audit entry of its own (docs/security.md)
      expect(count(db, 'SELECT COUNT(*) AS n FROM movements')).toBe(movements);
      expect(count(db, 'SELECT COUNT(*) AS n FROM audit_log')).toBe(audits + 1);
      expect(count(db, "SELECT COUNT(*) AS n FROM audit_log WHERE action LIKE 'preview.%'")).toBeGreaterThanOrEqual(1);
      // keyboard: from the review's "Back to the form", Tab reaches the confirm button and Enter sends it
      await app.getByRole('button', { name: 'Back to the form' }).focus();
      await app.keyboard.press('Tab');
      await expect(app.getByRole('button', { name: 'Issue 1,234.5 t' })).toBeFocused();
      await app.keyboard.press('Enter');
      await expect(app.getByRole('status').filter({ hasText: 'Done' })).toBeVisible();
      await expect(app.getByRole('button', { name: 'New', exact: true })).toBeFocused();
      // once made, the heading says what was done, as a sentence (it read "Review: issue …", then "Done: issue …")
      await expect(app.getByRole('heading', { level: 2, name: /^Issued 1,234\.5 t to .+, vintage 2031$/ })).toBeVisible();
      expect(count(db, "SELECT COUNT(*) AS n FROM audit_log WHERE action = 'credits.issue' AND operator_id IS NOT NULL")).toBe(1);
      // "New" goes back to the form, on its first field
      await app.keyboard.press('Enter');
      await expect(form.getByLabel('Project')).toBeFocused();
      // ...without the last amount: a second issuance is typed anew, never sent again by mistake
      await expect(form.getByLabel('Amount (tonnes)')).toHaveValue('');
      expect(count(db, "SELECT COUNT(*) AS n FROM credits WHERE project_id = ? AND vintage = '2031' AND type = 'exAnte'", project.id)).toBe(
        1,
      );
    });

    const credit = db.prepare("SELECT id, serialization FROM credits WHERE project_id = ? AND vintage = '2031'").get(project.id) as {
      id: string;
      serialization: string;
    };

    await test.step('cancellation: a reason, the amount typed again, then done', async () => {
      await app.getByRole('navigation', { name: 'Back office' }).getByRole('button', { name: 'Transfers' }).click();
      const form = app.getByRole('form', { name: 'Transfer or cancellation' });
      await form.getByRole('radio', { name: /^Cancel credits/ }).check();
      await form.getByLabel('From organization').selectOption({ label: project.org });
      await form.getByLabel('Credit', { exact: true }).selectOption(credit.id);
      await form.getByLabel('Amount (tonnes)').fill('11.05');
      await form.getByRole('textbox', { name: 'Reason' }).fill('Double counted in the monitoring report');
      await form.getByRole('button', { name: 'Review' }).click();
      const confirm = app.getByRole('button', { name: 'Cancel 11.05 t for good' });
      await expect(app.getByRole('heading', { level: 2 })).toHaveText(`Review the cancellation of 11.05 t of ${credit.serialization}`);
      await expect(app.getByRole('table', { name: 'Balances before and after' })).toContainText('1,100 t');
      // not before the amount is typed again
      await expect(confirm).toHaveAttribute('aria-disabled', 'true');
      await confirm.dispatchEvent('click');
      expect(count(db, "SELECT COUNT(*) AS n FROM movements WHERE kind = 'cancel' AND credit_id = ?", credit.id)).toBe(0);
      await app.getByLabel('Type the amount to confirm (tonnes)').fill('11.05');
      await expect(confirm).not.toHaveAttribute('aria-disabled', 'true');
      await screenshotBothThemes(app, 'back-office-cancellation-review');
      await confirm.click();
      await expect(app.getByRole('status').filter({ hasText: 'Done' })).toBeVisible();
      await expect(app.getByRole('heading', { level: 2 })).toHaveText(`Cancelled 11.05 t of ${credit.serialization} for good`);
      expect(count(db, "SELECT COUNT(*) AS n FROM movements WHERE kind = 'cancel' AND credit_id = ?", credit.id)).toBe(1);
    });

    await test.step('credit history: every movement with who made it', async () => {
      await app.getByRole('navigation', { name: 'Back office' }).getByRole('button', { name: 'Credit history' }).click();
      await app.getByLabel('Serialization or credit id').fill(credit.serialization);
      await app.keyboard.press('Enter');
      const table = app.getByRole('table', { name: 'Ledger movements, oldest first' });
      await expect(table.getByRole('row')).toHaveCount(4); // header, issue to the inventory, issue to the buffer, cancel
      const cancelled = table.locator('tr[data-kind="cancel"]');
      await expect(cancelled).toContainText('Reason: Double counted in the monitoring report');
      await expect(cancelled).toContainText('11.05 t');
      await expect(cancelled.getByRole('button', { name: 'Credits cancelled (succeeded)' })).toBeVisible();
      await expect(
        table.locator('tr[data-kind="issue"]').first().getByRole('button', { name: 'Credits issued (succeeded)' }),
      ).toBeVisible();
      await screenshotBothThemes(app, 'back-office-credit-history');
      // each review asked its dry run (an audit entry) once: not again after its write and the syncs
      expect(count(db, "SELECT COUNT(*) AS n FROM audit_log WHERE action LIKE 'preview.%'")).toBe(previewsBefore + 2);
    });
  } finally {
    db.close();
  }
});
