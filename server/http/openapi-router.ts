import { OpenAPIHono } from '@hono/zod-openapi';
import { AppError } from '../lib/errors.ts';
import type { AppEnv } from './app-env.ts';
import { zodIssues } from './errors/error-handler.ts';

/**
 * A router whose zod validation failures become INVALID_REQUEST with field-level details, so
 * every route validates once, at the edge, with the schema that also documents it.
 */
export function createRouter(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) {
        throw new AppError('INVALID_REQUEST', 'The request is not valid.', {
          details: zodIssues(result.error),
        });
      }
    },
  });
}
