import { type ComponentType, Suspense, useEffect, useState } from 'react';
import { SCROLL_TOP_THRESHOLD_PX } from '../../../../../contracts/constants';

/**
 * The scroll-to-top button once the page has scrolled past SCROLL_TOP_THRESHOLD_PX: `button` is the button itself
 * (scroll-to-top.tsx), which the page loads lazily, only then. The page makes that lazy import, not this module: in
 * the shell chunk a lazy import would bring Vite's loader with it, and with that the entry would load the shell.
 */
export function ScrollToTopButton({ button: Button }: { button: ComponentType }) {
  const [scrolled, setScrolled] = useState(false);
  useEffect(() => {
    if (scrolled) return;
    const onScroll = () => {
      if (window.scrollY > SCROLL_TOP_THRESHOLD_PX) setScrolled(true);
    };
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [scrolled]);
  return scrolled ? (
    <Suspense fallback={null}>
      <Button />
    </Suspense>
  ) : null;
}
