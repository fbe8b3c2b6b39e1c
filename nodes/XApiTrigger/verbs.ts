import type { INodePropertyOptions } from 'n8n-workflow';

import { NOT_WELL_FORMED, wellFormed } from '../shared/form/input';
import { field } from '../XApi/helpers/statementInput';
import { COMPLETED_VERB, COMPLETED_VERBS, IRI, VERB_OPTIONS } from '../XApi/helpers/vocabulary';

/** Both completed IRIs the platform's documents use, space-separated (IRIs never contain spaces). */
const ANY_COMPLETED_VERB = COMPLETED_VERBS.join(' ');

/** More verbs than this would mean as many queries on every poll. */
const MAX_VERBS = 20;

const anyCompleted: INodePropertyOptions = {
	name: 'Completed (Either IRI)',
	value: ANY_COMPLETED_VERB,
	description: `Statements with either completed verb: ${COMPLETED_VERBS.join(' or ')}`,
};

export const triggerVerbFilter = field('Verb', 'verb', {
	type: 'options',
	options: [...VERB_OPTIONS, anyCompleted].sort((a, b) => (a.name < b.name ? -1 : 1)),
	default: ANY_COMPLETED_VERB,
	description:
		'Only statements with this verb. For other verbs, switch to Expression and enter an IRI, or several separated by spaces.',
});

const verbProblem = `filters.verb: must be a verb IRI, like ${COMPLETED_VERB}, or several separated by spaces`;

/** Verbs are case-sensitive; repeats are dropped. */
export function verbsOf(value: unknown): { verbs: string[] } | { problem: string } {
	const given = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
	const verbs: string[] = [];
	for (const entry of given) {
		if (typeof entry !== 'string') return { problem: verbProblem };
		for (const iri of entry.trim().split(/\s+/).filter(Boolean)) {
			if (!IRI.test(iri)) return { problem: verbProblem };
			if (!wellFormed(iri)) return { problem: `filters.verb: ${NOT_WELL_FORMED}` };
			if (!verbs.includes(iri)) verbs.push(iri);
		}
	}
	if (verbs.length <= MAX_VERBS) return { verbs };
	return {
		problem: `filters.verb: at most ${MAX_VERBS} verbs (each is one more query on every poll)`,
	};
}

/** A cursor saved for the earlier one-IRI default carries over: an update neither replays nor skips. */
export function isAnyCompleted(verbs: readonly string[]): boolean {
	return (
		verbs.length === COMPLETED_VERBS.length && COMPLETED_VERBS.every((iri) => verbs.includes(iri))
	);
}
