// The shell's permission rule (electron/main/permissions.ts): notifications for app://desk only.
import { describe, expect, it } from 'vitest';
import { installPermissionHandlers, isPermissionGranted } from '@main/permissions';

describe('permissions', () => {
  it('grants notifications to the app page, by URL or by origin', () => {
    expect(isPermissionGranted('notifications', 'app://desk/index.html')).toBe(true);
    expect(isPermissionGranted('notifications', 'app://desk')).toBe(true);
  });

  it('refuses notifications to any other origin, and every other permission to the app page', () => {
    for (const url of [
      'https://desk/',
      'app://desk.evil/',
      'app://other/',
      'file:///index.html',
      'http://127.0.0.1:5173/',
      '',
      'not a url',
      undefined,
    ])
      expect(isPermissionGranted('notifications', url), String(url)).toBe(false);
    for (const permission of ['media', 'geolocation', 'clipboard-read', 'openExternal', 'fullscreen', 'midi'])
      expect(isPermissionGranted(permission, 'app://desk/index.html'), permission).toBe(false);
  });

  it('answers requests and checks with the same rule', () => {
    const hooks: { request?: (...args: unknown[]) => void; check?: (...args: unknown[]) => boolean } = {};
    installPermissionHandlers({
      setPermissionRequestHandler: (hook) => (hooks.request = hook as never),
      setPermissionCheckHandler: (hook) => (hooks.check = hook as never),
    });
    const answers: boolean[] = [];
    hooks.request!({}, 'notifications', (granted: boolean) => answers.push(granted), { requestingUrl: 'app://desk/index.html' });
    hooks.request!({}, 'notifications', (granted: boolean) => answers.push(granted), { requestingUrl: 'https://example.org/' });
    hooks.request!({}, 'media', (granted: boolean) => answers.push(granted), { requestingUrl: 'app://desk/index.html' });
    expect(answers).toEqual([true, false, false]);
    expect(hooks.check!({}, 'notifications', 'app://desk', {})).toBe(true);
    expect(hooks.check!({}, 'notifications', 'null', {})).toBe(false);
  });
});
