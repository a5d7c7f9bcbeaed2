/**
 * The message contract between the widget iframe, the loader and the host page (DESIGN.md §6).
 * Imports nothing outside this folder: host developers may copy these types as they are.
 *
 * @example
 * ```ts
 * import type { ResultPayload } from 'svc/protocol';
 * Svc.on('svc-result', (payload: ResultPayload) => console.log(payload.outputs.totalTax));
 * ```
 */
export * from './events.ts';
export * from './guards.ts';
export type * from './handshake.ts';
export * from './page.ts';
