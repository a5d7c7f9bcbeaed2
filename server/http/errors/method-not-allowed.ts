import type { RouterRoute } from 'hono/types';

/** Compiles a Hono route path (`/v1/api/leads/:id`, `/docs/*`) into an anchored regex. */
function toRegex(path: string): RegExp {
  const pattern = path
    .split('/')
    .map((part) => {
      if (part === '*') return '.*';
      if (part.startsWith(':')) return '[^/]+';
      return part.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${pattern}$`);
}

/** The methods that some route accepts for `path`, used to tell a 405 from a 404. */
export function allowedMethods(routes: readonly RouterRoute[], path: string): string[] {
  const methods = new Set<string>();
  for (const route of routes) {
    if (route.method === 'ALL' || route.path === '/*' || route.path === '*') continue;
    if (toRegex(route.path).test(path)) methods.add(route.method);
  }
  return [...methods].sort();
}
