import { useEffect, useState } from 'react';
import { SCROLL_TOP_THRESHOLD_PX } from '../../../../../contracts/constants';
import { cn } from '../../../components/ui/cn';
import { useI18n } from '../../../lib/i18n';
import { IconArrowUp } from './icons';

/**
 * The corner the button takes (end-5 bottom-5 size-12: 20 + 48 px; the bottom left in Arabic), and a little room
 * around it.
 */
const CORNER_PX = 20 + 48 + 8;

/**
 * Whether the button would cover a control marked `data-keep-clear` (the pagination: on a phone it spans
 * the width, so Next passes under the corner as the list's end scrolls into view).
 */
function coversKeptClear(): boolean {
  const width = document.documentElement.clientWidth;
  const height = window.innerHeight;
  const rtl = document.documentElement.dir === 'rtl';
  return [...document.querySelectorAll('[data-keep-clear]')].some((element) => {
    const box = element.getBoundingClientRect();
    const inCorner = rtl ? box.left < CORNER_PX : box.right > width - CORNER_PX;
    return inCorner && box.bottom > height - CORNER_PX && box.top < height;
  });
}

/** The button, loaded once the page has scrolled that far (scroll-to-top-button.tsx); steps aside from the pagination. */
export function ScrollToTop() {
  const { t } = useI18n();
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const onScroll = () => setVisible(window.scrollY > SCROLL_TOP_THRESHOLD_PX && !coversKeptClear());
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  if (!visible) return null;
  return (
    <button
      type="button"
      aria-label={t('catalogue.scrollToTop')}
      onClick={() => {
        const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
        window.scrollTo({ top: 0, behavior: smooth ? 'smooth' : 'auto' });
      }}
      className={cn(
        'fixed end-5 bottom-5 z-40 grid size-12 place-items-center rounded-full bg-accent text-accent-fg shadow-xl',
        'hover:bg-accent-strong focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent',
      )}
    >
      <IconArrowUp className="size-6" />
    </button>
  );
}
