// The Electron shell with `electron` mocked (there is no Electron binary here): the real
// electron/main/index.ts is loaded and its wiring is checked: window options, the app:// protocol
// (traversal refused), IPC reaching the real desk service (and refusing bad methods, inputs and
// senders), navigation and new windows denied, CSP on responses, window state remembered.
import { EventEmitter } from 'node:events';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { deskApi, type DeskMethod, type DeskOutput, type DeskResult } from '@shared/desk/api';
import { makeDataDir, rsaKeyPair } from '@test/support/registry';
import { electron, waitFor } from '@test/support/electron-mock';

vi.mock('electron', async () => (await import('@test/support/electron-mock')).electronModule());

let data: { dir: string; remove(): void };
const APP_FRAME = { senderFrame: { url: 'app://desk/index.html' } };

const invoke = (event: unknown, method: unknown, input: unknown) =>
  electron.ipcHandlers.get('desk:invoke')!(event, method, input) as Promise<DeskResult<unknown>>;

/** A call from the app page that must succeed; its value checked against the desk contract. */
async function invokeOk<M extends DeskMethod>(method: M, input: unknown): Promise<DeskOutput<M>> {
  const result = await invoke(APP_FRAME, method, input);
  if (!result.ok) throw new Error(`${method}: ${result.error.code} ${result.error.message}`);
  return deskApi[method].output.parse(result.value) as DeskOutput<M>;
}

beforeAll(async () => {
  data = makeDataDir('desk-shell-');
  electron.userData = data.dir;
  await import('@main/index');
  // start() runs after whenReady: the window appears once the desk service is up.
  await waitFor(() => electron.windows[0]);
}, 180_000);

afterAll(async () => {
  const beforeQuit = electron.appListeners.get('before-quit');
  if (beforeQuit) {
    // The shell closes the desk service, then quits.
    const quit = new Promise<void>((resolve) => (electron.onQuit = resolve));
    beforeQuit({ preventDefault: () => {} });
    await quit;
  }
  data?.remove();
});

describe('start-up', () => {
  it('registers app:// as a privileged standard, secure scheme before ready, and asks for the single-instance lock', () => {
    expect(electron.schemes).toEqual([{ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) }]);
    expect(electron.appListeners.has('second-instance')).toBe(true);
  });

  it('opens one window with isolation, no Node, the sandbox and the preload, on the app:// page', () => {
    expect(electron.windows).toHaveLength(1);
    const { options, loaded } = electron.windows[0]!;
    expect(options.webPreferences).toMatchObject({
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
      webSecurity: true,
      webviewTag: false,
    });
    expect(String((options.webPreferences as { preload: string }).preload)).toMatch(/preload[\\/]index\.cjs$/);
    expect(loaded).toEqual(['app://desk/index.html']);
  });

  it('puts the CSP on every response; grants notifications to the app page only, refuses every other permission', () => {
    let answered: { responseHeaders: Record<string, string[]> } | undefined;
    electron.headersHook!({ responseHeaders: { 'content-type': ['text/html'] } }, (r) => (answered = r as typeof answered));
    expect(answered!.responseHeaders['Content-Security-Policy']![0]).toMatch(/default-src 'self'.*object-src 'none'/);
    const request = (permission: string, requestingUrl: string): boolean | undefined => {
      let granted: boolean | undefined;
      electron.permissionHook!({}, permission, (g) => (granted = g), { requestingUrl });
      return granted;
    };
    expect(request('media', 'app://desk/index.html')).toBe(false);
    expect(request('notifications', 'app://desk/index.html')).toBe(true);
    expect(request('notifications', 'https://example.org/')).toBe(false);
    expect(request('notifications', 'app://other/index.html')).toBe(false);
    for (const permission of ['clipboard-read', 'media', 'geolocation'])
      expect(electron.permissionCheck!({}, permission, 'app://desk', {}), permission).toBe(false);
    expect(electron.permissionCheck!({}, 'notifications', 'app://desk', {})).toBe(true);
    expect(electron.permissionCheck!({}, 'notifications', 'https://example.org', {})).toBe(false);
    expect(electron.permissionCheck!({}, 'notifications', 'file://', {})).toBe(false);
  });

  it('has menu accelerators for Sync now, Find and the six views', () => {
    const items = (electron.menuTemplate as { submenu?: { label?: string; accelerator?: string }[] }[]).flatMap((m) => m.submenu ?? []);
    const accelerators = items.filter((i) => i.accelerator).map((i) => `${i.label}=${i.accelerator}`);
    expect(accelerators).toEqual(
      expect.arrayContaining(['Sync now=CmdOrCtrl+R', 'Find=CmdOrCtrl+F', 'View 1=CmdOrCtrl+1', 'View 6=CmdOrCtrl+6']),
    );
    const find = items.find((i) => i.label === 'Find') as { click: () => void };
    find.click();
    expect(electron.windows[0]!.sent).toContainEqual(['desk:event', { type: 'menu.command', command: 'find' }]);
  });
});

describe('logs and crash records', () => {
  type Item = { label?: string; role?: string; submenu?: Item[]; click?: () => void };
  const help = () => (electron.menuTemplate as Item[]).find((menu) => menu.role === 'help')!.submenu!;

  it('keeps a log file in the data folder and crash reports on this machine only', () => {
    const logs = join(electron.userData, 'userData', 'logs');
    expect(electron.logsPath).toBe(logs);
    expect(electron.crashReporterStarts).toEqual([{ uploadToServer: false, compress: true }]);
    expect(readFileSync(join(logs, 'desk.log'), 'utf8')).toMatch(/^\S+Z info {2}Registry Desk 9\.9\.9 starting$/m);
  });

  it('has Help > Open logs folder, Copy diagnostics and Check for updates', async () => {
    expect(help().map((item) => item.label)).toEqual(['Open logs folder', 'Copy diagnostics', undefined, 'Check for updates…']);
    // Not packaged: no update feed, and it says so instead of pretending to check.
    help()[3]!.click!();
    const box = await waitFor(() =>
      electron.messageBoxes.find((b) => b.message === 'Updates are checked only in an installed Registry Desk.'),
    );
    electron.messageBoxes.splice(electron.messageBoxes.indexOf(box), 1);
    help()[0]!.click!();
    expect(electron.openedPaths).toEqual([join(electron.userData, 'userData', 'logs')]);
    help()[1]!.click!();
    expect(electron.clipboard.at(-1)).toMatch(/^Registry Desk 9\.9\.9\n/);
    expect(electron.clipboard.at(-1)).toContain(`Logs folder: ${join(electron.userData, 'userData', 'logs')}`);
    // No key used yet in this test run: the keychain is chosen on the first keychain question.
    expect(electron.clipboard.at(-1)).toMatch(/Secret store: (not chosen yet|keytar|safeStorage|none)/);
  });
});

describe('app:// protocol', () => {
  let renderer: string;
  let handler: (request: Request) => Promise<Response>;
  beforeAll(async () => {
    const { createAppProtocolHandler } = await import('@main/protocol');
    renderer = join(data.dir, 'renderer');
    mkdirSync(join(renderer, 'assets'), { recursive: true });
    writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>desk</title>');
    writeFileSync(join(renderer, 'assets', 'app.js'), 'void 0');
    writeFileSync(join(data.dir, 'secret.txt'), 'outside');
    handler = createAppProtocolHandler(renderer);
  });

  it('is the handler the shell registered', () => {
    expect(electron.protocolHandlers.has('app')).toBe(true);
  });

  it('serves files inside the renderer folder with the CSP', async () => {
    const page = await handler(new Request('app://desk/index.html'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect((await handler(new Request('app://desk/assets/app.js'))).headers.get('content-type')).toMatch(/javascript/);
    expect((await handler(new Request('app://desk/no-such-file'))).status).toBe(404);
    // A screen's address (the page's own history entries) is the page, so a reload keeps the screen.
    const screen = await handler(new Request('app://desk/projects/1006'));
    expect(screen.status).toBe(200);
    expect(screen.headers.get('content-type')).toMatch(/text\/html/);
  });

  it('refuses path traversal in every spelling, and other hosts', async () => {
    for (const url of [
      'app://desk/../../etc/passwd',
      'app://desk/%2e%2e/%2e%2e/etc/passwd',
      'app://desk/..%2f..%2fsecret.txt',
      'app://desk/assets/..%2f..%2fsecret.txt',
      'app://desk/..%5csecret.txt',
      'app://desk/%2e%2e%2fsecret.txt',
      'app://desk/assets/%252e%252e/secret.txt',
      'app://desk/index.html%00.js',
    ]) {
      const res = await handler(new Request(url));
      expect(res.status, url).toBeGreaterThanOrEqual(400);
      const body = await res.text();
      expect(body, url).not.toContain('root:');
      expect(body, url).not.toContain('outside');
    }
    expect((await handler(new Request('app://elsewhere/index.html'))).status).toBe(403);
  });
});

describe('IPC', () => {
  it('carries a call from the app page to the real desk service, in a process of its own', async () => {
    expect(electron.servicePids).toHaveLength(1);
    expect(electron.servicePids[0]).not.toBe(process.pid);
    const info = await invoke(APP_FRAME, 'system.info', {});
    expect(info).toMatchObject({ ok: true, value: { host: 'electron', version: '9.9.9', dataDir: join(data.dir, 'userData', 'desk') } });
    expect((await invokeOk('connections.list', {})).activeId).toBe('embedded');
  });

  it('syncs the embedded registry in the sync worker and reports it to the window', async () => {
    const window = electron.windows[0]!;
    const started = await invoke(APP_FRAME, 'sync.run', {});
    expect(started).toMatchObject({ ok: true });
    const finished = await waitFor(() =>
      window.sent.find(([channel, event]) => channel === 'desk:event' && (event as { type: string }).type === 'sync.finished'),
    );
    expect((finished[1] as { status: { running: boolean } }).status.running).toBe(false);
    const projects = await invokeOk('projects.search', { scope: 'internal', limit: 5 });
    expect(projects.total).toBeGreaterThan(0);
  });

  it('refuses unknown methods, invalid input and other senders', async () => {
    expect(await invoke(APP_FRAME, 'fs.readFile', {})).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await invoke(APP_FRAME, { toString: () => 'system.info' }, {})).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const bad = await invoke(APP_FRAME, 'warehouse.reserve', { organizationId: 'x', amount: 'lots' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input', details: [expect.any(String), expect.any(String)] } });
    for (const frame of [
      { senderFrame: { url: 'https://evil.example/' } },
      { senderFrame: { url: 'file:///tmp/x.html' } },
      { senderFrame: null },
    ]) {
      expect(await invoke(frame, 'system.info', {})).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    }
  });

  it('saves only by the handle of a file the desk produced', async () => {
    const save = electron.ipcHandlers.get('desk:save-file')!;
    expect(await save(APP_FRAME, { filename: 'a.csv' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    // Bytes and a name from the page are refused: only a handle of a file the desk produced.
    expect(await save(APP_FRAME, { filename: 'a.exe', mimeType: 'text/csv', base64: 'TVo=' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(await save(APP_FRAME, { handle: 'C'.repeat(24), base64: 'TVo=' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(await save(APP_FRAME, { handle: 'C'.repeat(24) })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(
      await save({ senderFrame: { url: 'https://evil.example/' } }, { filename: 'a.csv', mimeType: 'text/csv', base64: '' }),
    ).toMatchObject({ ok: false });
  });
});

describe('importing an app key', () => {
  it('reads the file the native dialog chose in the main process; the page gets only a handle, never the key', async () => {
    const importKey = electron.ipcHandlers.get('desk:import-key')!;
    const pem = rsaKeyPair(0).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const keyFile = join(data.dir, 'app-key.pem');
    writeFileSync(keyFile, pem);

    expect(await importKey({ senderFrame: { url: 'https://evil.example/' } })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    electron.openDialogAnswer = { canceled: true, filePaths: [] };
    expect(await importKey(APP_FRAME)).toEqual({ ok: true, value: null });

    electron.openDialogAnswer = { canceled: false, filePaths: [keyFile] };
    const picked = (await importKey(APP_FRAME)) as DeskResult<{ handle: string; fileName: string }>;
    expect(picked).toEqual({ ok: true, value: { handle: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/), fileName: 'app-key.pem' } });
    expect(JSON.stringify(picked)).not.toContain('PRIVATE KEY');

    const notAKey = join(data.dir, 'notes.pem');
    writeFileSync(notAKey, 'hello');
    electron.openDialogAnswer = { canceled: false, filePaths: [notAKey] };
    expect(await importKey(APP_FRAME)).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringMatching(/not a PEM-encoded RSA private key/) },
    });
    const huge = join(data.dir, 'huge.pem');
    writeFileSync(huge, 'x'.repeat(50_000));
    electron.openDialogAnswer = { canceled: false, filePaths: [huge] };
    expect(await importKey(APP_FRAME)).toMatchObject({
      ok: false,
      error: { message: 'huge.pem is too large to be a key file (at most 20 KB)' },
    });
  });
});

describe('navigation', () => {
  it('denies navigation, redirects, webviews and new windows; https links go to the OS browser', async () => {
    const contents = Object.assign(new EventEmitter(), {
      openHandler: undefined as undefined | ((d: { url: string }) => { action: string }),
      setWindowOpenHandler(h: (d: { url: string }) => { action: string }) {
        this.openHandler = h;
      },
    });
    electron.appListeners.get('web-contents-created')!({}, contents);
    for (const name of ['will-navigate', 'will-redirect', 'will-attach-webview']) {
      const event = { preventDefault: vi.fn() };
      contents.emit(name, event, 'https://evil.example/');
      expect(event.preventDefault, name).toHaveBeenCalled();
    }
    // The user is asked first, with the host shown; Cancel opens nothing.
    electron.messageBoxAnswers.push(1, 0);
    expect(contents.openHandler!({ url: 'https://xn--exmple-cua.org/login' })).toEqual({ action: 'deny' });
    await waitFor(() => electron.messageBoxes[0]);
    expect(electron.messageBoxes[0]).toMatchObject({ message: 'Open xn--exmple-cua.org in your browser?' });
    expect(contents.openHandler!({ url: 'https://example.org/project' })).toEqual({ action: 'deny' });
    await waitFor(() => electron.opened[0]);
    expect(electron.opened).toEqual(['https://example.org/project']);
    expect(electron.messageBoxes[1]).toMatchObject({
      message: 'Open example.org in your browser?',
      detail: expect.stringContaining('https://example.org/project'),
    });
    // Anything but https is neither asked about nor opened.
    expect(contents.openHandler!({ url: 'http://example.org/' })).toEqual({ action: 'deny' });
    expect(contents.openHandler!({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(contents.openHandler!({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(electron.messageBoxes).toHaveLength(2);
    expect(electron.opened).toEqual(['https://example.org/project']);
  });
});

describe('window state', () => {
  it('remembers bounds and maximized in settings.json when the window closes', async () => {
    electron.windows[0]!.emitter.emit('close');
    // The service handles messages in order: once a later call is answered, the state is saved.
    await invoke(APP_FRAME, 'system.info', {});
    const settings = JSON.parse(readFileSync(join(data.dir, 'userData', 'desk', 'settings.json'), 'utf8')) as { window: unknown };
    expect(settings.window).toEqual({ bounds: { x: 10, y: 20, width: 1111, height: 777 }, maximized: true });
  });
});

describe('preload', () => {
  it('exposes only window.registryDesk, which forwards calls over desk:invoke', async () => {
    await import('@preload/index');
    expect([...electron.exposed.keys()]).toEqual(['registryDesk']);
    const bridge = electron.exposed.get('registryDesk') as { host: string; invoke: (m: string, i: unknown) => Promise<unknown> };
    expect(bridge.host).toBe('electron');
    await bridge.invoke('system.info', {});
    expect(electron.rendererInvokes.at(-1)).toEqual(['desk:invoke', 'system.info', {}]);
    expect(Object.keys(bridge).sort()).toEqual(['host', 'importKeyFile', 'invoke', 'onEvent', 'saveFile']);
  });
});
