import { z } from '@hono/zod-openapi';

/** A moment as every public shape writes it: ISO 8601, UTC, milliseconds. */
export const Iso = z.string().openapi({ format: 'date-time', example: '2026-03-01T12:15:00.000Z' });
