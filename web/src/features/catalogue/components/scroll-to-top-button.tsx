import { useEffect, useState } from 'react';
import { SCROLL_TOP_THRESHOLD_PX } from '../../../../../contracts/constants';
import { catalogueMessages } from '../../../../../contracts/messages/catalogue';
import { cn } from '../../../components/ui/cn';
import { IconArrowUp } from './icons';

/** Appears once the page has scrolled past SCROLL_TOP_THRESHOLD_PX. */
export function ScrollToTopButton() {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const onScroll = () => setVisible(window.scrollY > SCROLL_TOP_THRESHOLD_PX);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  if (!visible) return null;
  return (
    <button
      type="button"
      aria-label={catalogueMessages.scrollToTop}
      onClick={() => {
        const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
        window.scrollTo({ top: 0, behavior: smooth ? 'smooth' : 'auto' });
      }}
      className={cn(
        'fixed right-5 bottom-5 z-40 grid size-12 place-items-center rounded-full bg-accent text-accent-fg shadow-xl',
        'hover:bg-accent-strong focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent',
      )}
    >
      <IconArrowUp className="size-6" />
    </button>
  );
}
