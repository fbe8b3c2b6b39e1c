import { DEFAULT_OPTIONS } from '../../sandbox/options';
import type { ThrottleShape } from '../../sandbox/throttle';

/** How the benches name the platform's limiter: its shape, and whether its 429s say how long to wait. */
export const limiterLabel = (
	shape: ThrottleShape = DEFAULT_OPTIONS.throttleShape,
	retryAfter: boolean | 'ms' = true,
): string =>
	`${shape}${retryAfter === 'ms' ? ', Retry-After in ms (not HTTP)' : retryAfter ? '' : ', no Retry-After'}`;
