// Saving one retirement's certificate from the registry, and what became of the last save in words:
// the browser's own download bar is not read out and shows nothing for a keyboard user who stays in
// the panel.
import { useState } from 'react';
import { useAction } from '@renderer/components/useAction';
import { downloadCertificate } from './certificates';
import { savedFilesNote } from './savedFilesNote';

export function useCertificateSave(id: string) {
  const certificate = useAction(() => downloadCertificate(id));
  const [savedNote, setSavedNote] = useState<string | null>(null);
  const save = async () => {
    setSavedNote(null);
    const file = await certificate.run();
    if (file) setSavedNote(savedFilesNote(file.saved ? [file] : [], 1, file.saved ? 0 : 1));
  };
  return { busy: certificate.busy, error: certificate.error, savedNote, save };
}
