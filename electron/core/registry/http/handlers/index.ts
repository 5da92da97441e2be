import type { CertificateRenderer } from '@registry/certificates/pool';
import type { Handlers } from '../types';
import { appHandlers } from './apps';
import { changesHandlers } from './changes';
import { creditHandlers } from './credits';
import { operatorHandlers } from './operator';
import { organizationHandlers } from './organizations';
import { projectHandlers } from './projects';
import { retirementReadHandlers } from './retirements-read';
import { retirementWriteHandlers } from './retirements-write';
import { warehouseHandlers } from './warehouse';

/** Every endpoint's handler; the type makes a missing one a compile error. */
export function createHandlers(options: { renderCertificate?: CertificateRenderer } = {}): Handlers {
  return {
    ...projectHandlers,
    ...creditHandlers,
    ...organizationHandlers,
    ...retirementReadHandlers,
    ...retirementWriteHandlers(options.renderCertificate),
    ...warehouseHandlers,
    ...appHandlers,
    ...changesHandlers,
    ...operatorHandlers,
  };
}

/** The handlers with certificates rendered in the serving thread. */
export const handlers: Handlers = createHandlers();
