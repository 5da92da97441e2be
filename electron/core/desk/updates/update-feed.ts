// Where releases are published (electron-builder.config.mjs `publish`, generic provider: a folder
// of files any static server can host) and which manifest each platform reads there.
export const UPDATE_FEED_URL = 'https://registrydesk.org/updates/';

export function channelFileFor(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return 'latest-mac.yml';
  if (platform === 'win32') return 'latest.yml';
  return 'latest-linux.yml';
}
