// Mounts a component in the test page (real Chromium) and unmounts it after the test.
import type { ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach } from 'vitest';

let mounted: { root: Root; container: HTMLElement } | null = null;

export function render(node: ReactNode): { rerender(next: ReactNode): void } {
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  root.render(node);
  mounted = { root, container };
  // The same tree with new props (as its parent re-rendering it does): state is kept.
  return { rerender: (next) => root.render(next) };
}

afterEach(() => {
  mounted?.root.unmount();
  mounted?.container.remove();
  mounted = null;
});
