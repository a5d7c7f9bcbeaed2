import { z } from '@hono/zod-openapi';

/**
 * The one error shape every `/v1` and admin route answers (`Error` in the API documents):
 * `{ "error": { "code", "message", "status" } }`, with field-level `details` for a 400. The codes
 * and their statuses are the table in server/lib/errors.ts (`AppError.toBody()` writes this shape).
 */
export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: 'INVALID_REQUEST' }),
      message: z.string(),
      status: z.number().int(),
      details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    }),
  })
  .openapi('Error');
