/** Injected failures for API requests, chosen by a seeded random roll. */

import { createRandom, type Random } from './random';
import { jsonReply, type Reply } from './reply';
import type { SandboxOptions } from './options';

export type FaultKind =
	| 'throttle-429-retry-after'
	| 'throttle-429'
	| 'server-500'
	| 'server-502'
	| 'server-503'
	/** The socket closes before the request is handled: nothing happened. */
	| 'drop-before-apply'
	/** The request is handled (a write is accepted) and then the socket closes unanswered. */
	| 'drop-after-apply'
	| 'expire-token';

export class FaultPicker {
	private random: Random;

	constructor(seed: number) {
		this.random = createRandom(seed);
	}

	reseed(seed: number): void {
		this.random = createRandom(seed);
	}

	/** One roll decides whether and which fault; a second picks its variant. */
	pick(options: SandboxOptions): FaultKind | null {
		const bands: Array<[number, (variant: number) => FaultKind]> = [
			[options.fault429, (v) => (v < 0.5 ? 'throttle-429-retry-after' : 'throttle-429')],
			[
				options.fault5xx,
				(v) => (v < 1 / 3 ? 'server-500' : v < 2 / 3 ? 'server-502' : 'server-503'),
			],
			[options.faultDrop, (v) => (v < 0.5 ? 'drop-before-apply' : 'drop-after-apply')],
			[options.faultExpireToken, () => 'expire-token'],
		];
		if (bands.every(([fraction]) => fraction <= 0)) return null;
		const roll = this.random();
		let upper = 0;
		for (const [fraction, variantOf] of bands) {
			upper += fraction;
			if (roll < upper) return variantOf(this.random());
		}
		return null;
	}
}

/** Gateways answer 502/503 with HTML, not JSON; clients must cope with both. */
function gatewayPage(status: number, title: string): Reply {
	return {
		status,
		text: `<html><head><title>${status} ${title}</title></head><body><h1>${status} ${title}</h1></body></html>`,
		contentType: 'text/html; charset=utf-8',
	};
}

/** Faults the sandbox answers with a canned reply; drops and token expiry need the server. */
export type AnsweredFault = Exclude<
	FaultKind,
	'drop-before-apply' | 'drop-after-apply' | 'expire-token'
>;

export function faultReply(kind: AnsweredFault): Reply {
	switch (kind) {
		case 'throttle-429-retry-after':
			return jsonReply(429, { message: 'Too many requests' }, { 'Retry-After': '1' });
		case 'throttle-429':
			return jsonReply(429, { message: 'Too many requests' });
		case 'server-500':
			return jsonReply(500, { message: 'Internal Server Error' });
		case 'server-502':
			return gatewayPage(502, 'Bad Gateway');
		case 'server-503':
			return gatewayPage(503, 'Service Temporarily Unavailable');
	}
}
