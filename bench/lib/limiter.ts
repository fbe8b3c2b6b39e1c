import { DEFAULT_OPTIONS } from '../../sandbox/options';
import type { ThrottleShape } from '../../sandbox/throttle';

/** How the benches name the platform's limiter: its shape, and whether its 429s say how long to wait. */
export const limiterLabel = (
	shape: ThrottleShape = DEFAULT_OPTIONS.throttleShape,
	retryAfter = true,
): string => `${shape}${retryAfter ? '' : ', no Retry-After'}`;
