import type { z } from 'zod';
import type { installationInfo } from '../../../shared/desk/api';

export type InstallationInfo = z.infer<typeof installationInfo>;
