import { z } from '@hono/zod-openapi';
import { PAGE_MAX_LENGTH, pageOfText } from '../../protocol/page.ts';

import { ErrorSchema } from '../contracts/error.ts';

/** Shared OpenAPI pieces: the standard error responses (the one error shape is contracts/error.ts). */

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: ErrorSchema } },
});

export const errorResponses = (
  ...statuses: (400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 501 | 503)[]
) => {
  const descriptions: Record<number, string> = {
    400: 'Invalid request (`INVALID_REQUEST`, `INVALID_GRANT`, `WRONG_KEY_KIND`)',
    401: 'Missing or invalid credential (`UNAUTHORIZED`, `INVALID_LICENSE`)',
    403: 'Not allowed (`FORBIDDEN`, `DOMAIN_NOT_ALLOWED`)',
    404: 'Not found',
    409: 'Conflict',
    413: 'Body too large',
    415: 'Body is not JSON',
    429: 'Rate limited (`Retry-After`)',
    501: 'Not configured on this server (`BILLING_NOT_CONFIGURED`)',
    503: 'A service this depends on is unavailable; retry',
  };
  return Object.fromEntries([...statuses, 429].map((s) => [s, errorResponse(descriptions[s]!)]));
};

/** A required JSON body; `example` is what the reference shows and prefills (public operations have one). */
export const jsonBody = <T extends z.ZodType>(schema: T, example?: z.input<T>) => ({
  body: {
    required: true,
    content: { 'application/json': { schema, ...(example === undefined ? {} : { example }) } },
  },
});

export const jsonResponse = <T extends z.ZodType>(description: string, schema: T) => ({
  description,
  content: { 'application/json': { schema } },
});

export const bearerSecurity = [{ bearerAuth: [] }];

export { Iso } from '../contracts/common.ts';

/** How long a rolled credential's predecessor keeps working: 0 (ends now) to 30 days. */
export const overlapSeconds = (description: string) =>
  z
    .number()
    .int()
    .min(0)
    .max(30 * 86_400)
    .optional()
    .openapi({ description });

/**
 * `page` in a calculation or lead body: the host page the widget sits on, as the page reports it.
 * The API keeps only its origin and path (`pageOf`, the loader's own rule); anything but an
 * http(s) URL is a 400.
 */
/** The visitor's language, as the widget was shown (`en` unless given): stored, never a change of values. */
export const LanguageField = z.enum(['en', 'es']).optional().openapi({
  description: 'The language the widget was shown in (`en` when absent); the PDF report is written in it',
  example: 'es',
});

export const PageField = z
  .string()
  .max(PAGE_MAX_LENGTH)
  .refine((value) => pageOfText(value) !== undefined, 'Expected an http(s) URL')
  .optional()
  .openapi({
    description: 'The host page (origin + path; a query or fragment is dropped), as reported by the page',
    example: 'https://firm.example/estate-planning',
  });
