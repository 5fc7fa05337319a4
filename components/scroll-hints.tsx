'use client';
/**
 * Boxes that scroll sideways inside the page (tables, the state diagram, the phone's navigation row)
 * say that they do: each one wider than its box gets `data-overflowing` (app/globals.css shows a hint
 * and an edge shadow) and becomes focusable, so it can be scrolled with the keyboard too.
 */
import { useEffect } from 'react';

const SELECTOR = '.table-wrap, .diagram, .nav-scroll';

export function ScrollHints() {
  useEffect(() => {
    const mark = (el: HTMLElement) => {
      const over = el.scrollWidth > el.clientWidth + 1;
      if (over !== el.hasAttribute('data-overflowing')) el.toggleAttribute('data-overflowing', over);
      if (over && !el.hasAttribute('tabindex') && !el.classList.contains('nav-scroll')) el.tabIndex = 0;
    };
    const resize = new ResizeObserver((entries) => entries.forEach((e) => mark(e.target as HTMLElement)));
    const watched = new WeakSet<Element>();
    let frame = 0;
    const scan = () => {
      frame = 0;
      for (const el of document.querySelectorAll<HTMLElement>(SELECTOR)) {
        if (!watched.has(el)) {
          watched.add(el);
          resize.observe(el);
        }
        mark(el);
      }
    };
    scan();
    const mutations = new MutationObserver(() => {
      frame ||= requestAnimationFrame(scan);
    });
    mutations.observe(document.body, { childList: true, subtree: true });
    return () => {
      resize.disconnect();
      mutations.disconnect();
      cancelAnimationFrame(frame);
    };
  }, []);
  return null;
}
