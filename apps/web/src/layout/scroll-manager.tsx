import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { prefersReducedMotion } from '../lib/reduced-motion';

/** How long to wait for a lazily loaded page to render the section a hash points at. */
const HASH_TARGET_WAIT_MS = 3000;

/**
 * docs/product.md#navigation-footer-and-theme: every route change scrolls smoothly to the top, and
 * `/#how-it-works` scrolls to that section of the landing page. The landing page is its own lazy
 * chunk, so the section may not exist yet when the location changes; we look for it on each frame
 * until it appears.
 */
export function ScrollManager() {
  const { pathname, hash, key } = useLocation();

  useEffect(() => {
    const smooth: ScrollBehavior = prefersReducedMotion() ? 'auto' : 'smooth';
    const id = hash ? decodeURIComponent(hash.slice(1)) : '';
    if (!id) {
      window.scrollTo({ top: 0, left: 0, behavior: smooth });
      return;
    }
    let frame = 0;
    const started = performance.now();
    const seek = () => {
      const target = document.getElementById(id);
      if (target) {
        target.scrollIntoView({ behavior: smooth, block: 'start' });
        return;
      }
      if (performance.now() - started < HASH_TARGET_WAIT_MS) {
        frame = requestAnimationFrame(seek);
      } else {
        window.scrollTo({ top: 0, left: 0, behavior: smooth });
      }
    };
    seek();
    return () => cancelAnimationFrame(frame);
    // `key` changes when the same link is followed again, so a second click scrolls again.
  }, [pathname, hash, key]);

  return null;
}
