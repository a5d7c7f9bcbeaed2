import { z } from '@hono/zod-openapi';
import { Iso } from './common.ts';

/**
 * A license's public shapes, declared once: the token set an activation, a Connect exchange and a
 * refresh answer (`TokenSet`), and the status a site reads (`LicenseStatus`). The domain's
 * `TokenSet` and `LicenseStatusView` are their inferred types.
 */

export const TokenSetSchema = z
  .object({
    accessJwt: z.string(),
    refreshToken: z.string().openapi({ example: 'svc_rt_…' }),
    expiresAt: Iso,
    tokenType: z.literal('Bearer'),
    expiresIn: z.number().int().openapi({ example: 900 }),
    scope: z.enum(['site', 'site leads:read', 'site admin']),
  })
  .openapi('TokenSet');
export type TokenSet = z.infer<typeof TokenSetSchema>;

export const LicenseStatusSchema = z
  .object({
    status: z.enum(['trial', 'active', 'grace', 'expired', 'revoked']),
    plan: z.string(),
    seats: z.number().int(),
    seatsUsed: z.number().int(),
    allowedDomains: z.array(z.string()),
    expiresAt: Iso.nullable(),
    trialEndsAt: Iso.optional(),
    graceEndsAt: Iso.optional(),
    renewsAt: Iso.optional().openapi({ description: 'When Stripe renews the subscription' }),
    cancelAt: Iso.optional().openapi({ description: 'When the cancelled subscription ends' }),
    overSeat: z.boolean().openapi({ description: 'More sites than seats: new sites are refused' }),
    next: z.string().openapi({ example: 'Grace ends 2026-03-17; widgets stop then.' }),
    publishableKey: z.string().nullable().openapi({
      description:
        'The license’s current publishable key (public by design): what a plugin puts in the loader’s `data-key`',
      example: 'svc_pk_…',
    }),
  })
  .openapi('LicenseStatus');
export type LicenseStatusView = z.infer<typeof LicenseStatusSchema>;
