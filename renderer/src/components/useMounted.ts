// Whether the component is still on the page: a desk call that ends after its dialog or form was
// closed must not act for it (close it, clear a selection), which would hit whatever replaced it.
import { useEffect, useRef, type RefObject } from 'react';

export function useMounted(): RefObject<boolean> {
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  return mounted;
}
