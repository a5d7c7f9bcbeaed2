import { describe, expectTypeOf, it } from 'vitest';
import type { SvcApi as LoaderApi } from '../loader/loader.ts';
import type * as protocol from '../protocol/index.ts';
import type * as sdk from './embed-api';

/** embed.d.ts is hand-written for host developers: these checks keep it equal to the real types (tsc runs them). */
describe('embed.d.ts', () => {
  it('names every event with the protocol’s payloads', () => {
    expectTypeOf<sdk.EventType>().toEqualTypeOf<protocol.EventType>();
    expectTypeOf<sdk.PayloadOf>().toEqualTypeOf<protocol.PayloadOf>();
    expectTypeOf<sdk.ErrorReason>().toEqualTypeOf<protocol.ErrorReason>();
    expectTypeOf<sdk.ResultPayload>().toEqualTypeOf<protocol.ResultPayload>();
    expectTypeOf<sdk.ErrorPayload>().toEqualTypeOf<protocol.ErrorPayload>();
  });

  it('describes the Svc global the loader sets', () => {
    expectTypeOf<LoaderApi>().toMatchTypeOf<sdk.SvcApi>();
    expectTypeOf<sdk.SvcApi>().toMatchTypeOf<LoaderApi>();
  });

  it('describes embed.mjs', () => {
    expectTypeOf<typeof import('./embed.ts').mount>().toEqualTypeOf<typeof sdk.mount>();
    expectTypeOf<typeof import('./embed.ts').unmount>().toEqualTypeOf<typeof sdk.unmount>();
  });
});
