// The record a screen has open names the window title ("Project 1006: Kasigau Corridor"), in place
// of the screen's name, for as long as it is open (App.tsx writes the title).
import { useEffect } from 'react';
import { create } from 'zustand';

export const usePageTitle = create<{ record: string | null }>()(() => ({ record: null }));

/** While the calling component is shown, `title` (when not null) names the page. */
export function useRecordTitle(title: string | null): void {
  useEffect(() => {
    usePageTitle.setState({ record: title });
    return () => usePageTitle.setState({ record: null });
  }, [title]);
}
