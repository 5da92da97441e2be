import type { Handlers } from '../types';
import { notImplemented } from './not-implemented';

export const projectHandlers: Pick<Handlers, 'listProjects' | 'listInternalProjects' | 'getInternalProject' | 'findProject' | 'getProject'> = {
  listProjects: notImplemented('listProjects'),
  listInternalProjects: notImplemented('listInternalProjects'),
  getInternalProject: notImplemented('getInternalProject'),
  findProject: notImplemented('findProject'),
  getProject: notImplemented('getProject'),
};
