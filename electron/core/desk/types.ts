import type { z } from 'zod';
import type { DeskApi, DeskMethod, installationInfo } from '@shared/desk/api';

export type InstallationInfo = z.infer<typeof installationInfo>;

/** A desk method's input as its handler receives it: validated against the contract, defaults applied. */
export type ParsedDeskInput<M extends DeskMethod> = z.output<DeskApi[M]['input']>;
