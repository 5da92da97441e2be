// Saving a retirement's PDF certificate: the desk fetches it from the registry, the bridge saves it.
import { desk, saveFile } from '@renderer/lib/desk';
import { announce } from '@renderer/lib/signals';

export async function downloadCertificate(id: string): Promise<{ filename: string; saved: boolean; path?: string }> {
  const file = await desk('retirements.certificate', { id });
  const { saved, path } = await saveFile(file);
  announce('desk:file-saved', { filename: file.filename, saved, retirementId: id });
  return { filename: file.filename, saved, ...(path ? { path } : {}) };
}
