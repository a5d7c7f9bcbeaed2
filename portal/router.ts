import { signal } from '@preact/signals';

/** The current location (path + search), updated by `navigate` and the browser's back/forward. */
export const location$ = signal(currentLocation());

function currentLocation() {
  return typeof window === 'undefined' ? '/portal/' : window.location.pathname + window.location.search;
}

if (typeof window !== 'undefined') {
  window.addEventListener('popstate', () => {
    location$.value = currentLocation();
  });
}

export function navigate(to: string, replace = false) {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  location$.value = currentLocation();
  window.scrollTo(0, 0);
}

/**
 * Where a sign-in continues. A consent page (`/oauth/...`) is loaded from the server, which decides
 * which consent a request gets (server/routes/oauth/consent-page.ts); anything else is in-app.
 */
export function continueTo(next: string) {
  if (next.startsWith('/oauth/')) window.location.replace(next);
  else navigate(next, true);
}

/** Click handler for in-app links: plain clicks navigate without a reload; modified clicks open tabs. */
export function onLinkClick(event: MouseEvent) {
  const anchor = event.currentTarget as HTMLAnchorElement;
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
    return;
  event.preventDefault();
  navigate(anchor.getAttribute('href') ?? '/portal/');
}
