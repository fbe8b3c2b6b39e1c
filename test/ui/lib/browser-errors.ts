import type { Page } from 'playwright-core';

/** One error the page reported: a `console.error` (n8n logs failed requests this way too) or an uncaught exception. */
export interface BrowserError {
	/** What the test was doing when it happened. */
	step: string;
	kind: 'console' | 'pageerror';
	text: string;
	/** Where it came from: the failed resource for "Failed to load resource", else the script. */
	url: string;
}

/**
 * Errors that are n8n's own and not the package's, each with the reason it
 * may be left alone. Every other console error or page error fails the test.
 */
export interface KnownNoise {
	name: string;
	reason: string;
	matches(error: BrowserError): boolean;
}

export const KNOWN_NOISE: KnownNoise[] = [
	{
		name: 'output-schema preview probe',
		reason:
			"When a node is opened, the editor asks the server for a preview of its parent node's output " +
			'(GET /schemas/<node type>/<version>/<resource>/<operation>.json, a file a node package may ship ' +
			'in __schema__/) while the parent has not run yet; the server answers 404 when there is none and ' +
			"the browser logs the 404. n8n's own nodes that ship no such file log the same error (e.g. a " +
			"No Operation node after a Gotify node, in the same n8n 2.40.7). Only 404s of exactly that path for this package's " +
			'node types are left alone.',
		matches: (error) =>
			error.kind === 'console' &&
			/Failed to load resource: the server responded with a status of 404/.test(error.text) &&
			/\/schemas\/CUSTOM\.(learningPlatform|xApi|xApiTrigger)\/[\d.]+\/[A-Za-z]+\/[A-Za-z]+\.json$/.test(
				new URL(error.url, 'http://127.0.0.1').pathname,
			),
	},
];

export class BrowserErrors {
	readonly all: BrowserError[] = [];
	private currentStep = 'signing in';

	constructor(page: Page) {
		page.on('console', (message) => {
			if (message.type() !== 'error') return;
			this.all.push({
				step: this.currentStep,
				kind: 'console',
				text: message.text(),
				url: message.location().url,
			});
		});
		page.on('pageerror', (error) => {
			this.all.push({
				step: this.currentStep,
				kind: 'pageerror',
				text: error.stack ?? error.message,
				url: '',
			});
		});
	}

	/** Names what the test does next, so that an error can be traced to the click that caused it. */
	step(description: string): void {
		this.currentStep = description;
	}

	unexpected(): BrowserError[] {
		return this.all.filter((error) => !KNOWN_NOISE.some((noise) => noise.matches(error)));
	}

	/** Which known noise was seen, and how often: printed so that a run shows what it left alone. */
	leftAlone(): string[] {
		return KNOWN_NOISE.map((noise) => ({
			noise,
			count: this.all.filter((error) => noise.matches(error)).length,
		}))
			.filter(({ count }) => count > 0)
			.map(({ noise, count }) => `${noise.name}: ${count}`);
	}
}

export function describeErrors(errors: BrowserError[]): string {
	return errors
		.map(
			(error) =>
				`[${error.step}] ${error.kind}: ${error.text}${error.url ? ` (${error.url})` : ''}`,
		)
		.join('\n');
}
