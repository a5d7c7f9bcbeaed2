import { z } from '@hono/zod-openapi';
import { DESTINATION_VENDORS } from '../../domain/destinations/connector.ts';
import { Iso } from '../schemas.ts';

/** A CRM destination as owners and admins see it (the admin API, the portal, the CLI). */
const DestinationSchema = z
  .object({
    id: z.string(),
    accountId: z.string(),
    vendor: z.enum(DESTINATION_VENDORS),
    label: z.string().openapi({ description: 'The CRM’s name', example: 'Clio Grow' }),
    name: z.string().nullable(),
    url: z.string().openapi({ description: 'The vendor’s address leads are sent to' }),
    settings: z.record(z.string(), z.unknown()),
    credentialLast4: z.string().openapi({ description: 'The credential’s last four characters; never more' }),
    includeTest: z.boolean(),
    status: z.enum(['enabled', 'disabled']),
    disabledAt: Iso.nullable(),
    disabledReason: z.string().nullable(),
    pausedUntil: Iso.nullable().openapi({ description: 'After a 429: nothing is sent before this time' }),
    createdAt: Iso,
  })
  .openapi('Destination');

const LastDelivery = z
  .object({
    id: z.string(),
    status: z.enum(['pending', 'succeeded', 'failed', 'cancelled']),
    test: z.boolean(),
    createdAt: Iso,
    completedAt: Iso.nullable(),
  })
  .nullable();

const DestinationWithLastSchema = DestinationSchema.extend({ lastDelivery: LastDelivery }).openapi(
  'DestinationWithLastDelivery',
);

export const DestinationAnswerSchema = z
  .object({ destination: DestinationSchema })
  .openapi('AdminDestinationAnswer');
export const DestinationShowSchema = z
  .object({ destination: DestinationWithLastSchema })
  .openapi('AdminDestinationShow');
export const DestinationListSchema = z
  .object({ destinations: z.array(DestinationWithLastSchema) })
  .openapi('AdminDestinations');

export const VendorCatalogSchema = z
  .object({
    vendors: z.array(
      z.object({
        vendor: z.enum(DESTINATION_VENDORS),
        label: z.string(),
        credential: z.object({ label: z.string(), where: z.string() }),
        settings: z.record(z.string(), z.string()),
        customFields: z.object({ label: z.string() }).nullable(),
        docs: z.array(z.string()),
      }),
    ),
  })
  .openapi('DestinationVendors');

/** What a viewer sees of a destination: which CRM, whether it is on, and how its last delivery went. */
const DestinationSummary = z
  .object({
    id: z.string(),
    vendor: z.enum(DESTINATION_VENDORS),
    label: z.string(),
    name: z.string().nullable(),
    status: z.enum(['enabled', 'disabled']),
    disabledReason: z.string().nullable(),
    lastDelivery: LastDelivery,
  })
  .openapi('DestinationSummary');

/** Settings → Destinations: full views for owners and admins, summaries for viewers. */
export const PortalDestinationList = z
  .object({
    data: z.array(z.union([DestinationWithLastSchema, DestinationSummary])),
    /** Each CRM's setup (owners and admins; empty for viewers). */
    vendors: VendorCatalogSchema.shape.vendors,
    canManage: z.boolean(),
  })
  .openapi('PortalDestinations');
export const PortalOneDestination = z
  .object({ destination: DestinationSchema })
  .openapi('PortalDestinationAnswer');
