// 4.4 Credits: a project's credit data and the registry's own account inventories.
import { notFound } from '@registry/errors';
import { projectCredits } from '@registry/queries/project-credits';
import { registryInventory } from '@registry/queries/inventory';
import { projectVisibleAs } from '@registry/queries/projects';
import type { Caller } from '@registry/auth/caller';
import type { Handlers } from '../types';

/**
 * Credit data follows project visibility: a public project's to anyone, any project's to an app
 * holding examiner:read (there is no internal credits endpoint, and examiners must see the credits
 * of withdrawn projects or of organizations that lost their verification).
 */
function canSeeAllProjects(caller: Caller): boolean {
  return caller.kind === 'token' && caller.examinerRead;
}

export const creditHandlers: Pick<
  Handlers,
  'getProjectCredits' | 'getBufferInventory' | 'getAdjustmentInventory' | 'getOrganizationInventory'
> = {
  getProjectCredits: ({ registry, params, caller }) => {
    if (!projectVisibleAs(registry, params.id, canSeeAllProjects(caller) ? 'all' : 'public'))
      throw notFound(`Project ${params.id} not found`);
    return projectCredits(registry, params.id);
  },
  getBufferInventory: ({ registry }) => registryInventory(registry, 'buffer'),
  getAdjustmentInventory: ({ registry }) => registryInventory(registry, 'adjustment'),
  getOrganizationInventory: ({ registry }) => registryInventory(registry, 'registry'),
};
