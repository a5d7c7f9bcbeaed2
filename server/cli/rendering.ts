/**
 * A rendering typed by its route's answer (`api-types.ts`, inferred from the schema the route
 * declares), so a renamed or retyped field fails `tsc`. The cast is the one place the CLI trusts the
 * admin API to answer as its document says; the routes' handlers are checked against the same schema.
 */
export const rendering = <T>(render: (body: T) => string) => render as (body: unknown) => string;
