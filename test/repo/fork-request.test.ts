/** One fork request shape from the contract to core: the DTO the renderer sends is what planFork reads (plus the profile). */
import { describe, expectTypeOf, it } from 'vitest';
import type { ForkRequestDto } from '../../electron/shared/context-dto';
import type { ForkRequest, ForkTarget, Profile } from '../../electron/core';

describe('ForkRequestDto', () => {
  it("is core's ForkTarget, and a ForkRequest is it with a profile (checked by the type checker)", () => {
    expectTypeOf<ForkRequestDto>().toEqualTypeOf<ForkTarget>();
    expectTypeOf<ForkRequestDto & { profile: Profile }>().toEqualTypeOf<ForkRequest>();
  });
});
