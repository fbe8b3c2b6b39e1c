import { DateTime } from 'luxon';
import type { INodePropertyOptions } from 'n8n-workflow';

export const COMPLETED_VERB = 'http://adlnet.gov/expapi/verbs/completed';
/** The other completed IRI the platform's documents use (in a sample statement). */
const COMPLETE_VERB = 'http://activitystrea.ms/schema/1.0/complete';
/** Both documented completed IRIs: the trigger watches for either by default. */
export const COMPLETED_VERBS = [COMPLETED_VERB, COMPLETE_VERB];
export const CUSTOM = 'custom';

export const IRI = /^[a-z][a-z0-9+.-]*:\S+$/i;

/** Each name, lower-case and without its note in brackets, is the word `verb.display` carries. */
const VERBS: Array<{ name: string; iri: string; description?: string }> = [
	{ name: 'Assigned', iri: 'http://activitystrea.ms/schema/1.0/assign' },
	{ name: 'Bookmarked', iri: 'http://id.tincanapi.com/verb/bookmarked' },
	{ name: 'Commented', iri: 'http://adlnet.gov/expapi/verbs/commented' },
	{
		name: 'Completed (ADL)',
		iri: COMPLETED_VERB,
		description:
			"http://adlnet.gov/expapi/verbs/completed, the completed verb of the platform's verb list. The xAPI Trigger catches it by default.",
	},
	{
		name: 'Completed (Activity Streams)',
		iri: COMPLETE_VERB,
		description:
			"http://activitystrea.ms/schema/1.0/complete, the completed IRI of the platform's sample statement. The xAPI Trigger catches it by default too.",
	},
	{ name: 'Consumed', iri: 'http://activitystrea.ms/schema/1.0/consume' },
	{ name: 'Created', iri: 'http://activitystrea.ms/schema/1.0/create' },
	{ name: 'Failed', iri: 'http://adlnet.gov/expapi/verbs/failed' },
	{ name: 'Passed', iri: 'http://adlnet.gov/expapi/verbs/passed' },
	{ name: 'Progressed', iri: 'http://adlnet.gov/expapi/verbs/progressed' },
	{ name: 'Started', iri: 'http://activitystrea.ms/schema/1.0/start' },
	{ name: 'Up Voted', iri: 'http://id.tincanapi.com/verb/voted-up' },
	{ name: 'Viewed', iri: 'http://id.tincanapi.com/verb/viewed' },
];

const ACTIVITY_TYPES: Array<{ name: string; iri: string }> = [
	{ name: 'Article', iri: 'http://activitystrea.ms/schema/1.0/article' },
	{ name: 'Badge', iri: 'http://activitystrea.ms/schema/1.0/badge' },
	{ name: 'Bookmark', iri: 'http://activitystrea.ms/schema/1.0/bookmark' },
	{ name: 'Collection', iri: 'http://activitystrea.ms/schema/1.0/collection' },
	{ name: 'Comment', iri: 'http://activitystrea.ms/schema/1.0/comment' },
	{ name: 'Course', iri: 'http://adlnet.gov/expapi/activities/course' },
	{ name: 'Image', iri: 'http://activitystrea.ms/schema/1.0/image' },
	{ name: 'Lesson', iri: 'http://adlnet.gov/expapi/activities/lesson' },
	{ name: 'Objective', iri: 'http://adlnet.gov/expapi/activities/objective' },
	{ name: 'Question', iri: 'http://activitystrea.ms/schema/1.0/question' },
	{ name: 'Video', iri: 'http://activitystrea.ms/schema/1.0/video' },
];

export const COURSE_ACTIVITY_TYPE = 'http://adlnet.gov/expapi/activities/course';

export const VERB_OPTIONS: INodePropertyOptions[] = VERBS.map(
	({ name, iri, description = iri }) => ({ name, value: iri, description }),
);

export const VERB_OPTIONS_WITH_CUSTOM: INodePropertyOptions[] = [
	...VERB_OPTIONS,
	{ name: 'Custom', value: CUSTOM, description: 'Enter any verb IRI' },
];

export const ACTIVITY_TYPE_OPTIONS: INodePropertyOptions[] = [
	...ACTIVITY_TYPES.map(({ name, iri }) => ({ name, value: iri, description: iri })),
	{ name: 'Custom', value: CUSTOM, description: 'Enter any activity type IRI' },
];

const DISPLAY_BY_IRI = new Map(
	VERBS.map(({ name, iri }) => [iri, name.replace(/ \(.*\)$/, '').toLowerCase()]),
);

/** The platform's word for its own verbs, else the IRI's last segment ("…/verbs/attempted"). */
export function verbDisplayWord(iri: string): string | undefined {
	const known = DISPLAY_BY_IRI.get(iri);
	if (known) return known;
	const lastSegment = iri.split(/[?#]/)[0].replace(/\/+$/, '').split('/').pop() ?? '';
	if (!lastSegment || lastSegment.includes(':')) return undefined;
	let word = lastSegment;
	try {
		word = decodeURIComponent(lastSegment);
	} catch {
		// A malformed escape: keep the segment as written.
	}
	return word.replace(/[-_]+/g, ' ').trim() || undefined;
}

const HAS_OFFSET = /(Z|[+-]\d{2}(:?\d{2})?)$/i;

/** Date-times without an offset are read in the workflow's time zone, sent in UTC; offsets are kept. */
export function toXapiTimestamp(value: unknown, timezone: string): string | undefined {
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
	if (DateTime.isDateTime(value))
		return value.isValid ? (value.toUTC().toISO() ?? undefined) : undefined;
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	if (!/^\d{4}-\d{2}-\d{2}/.test(text)) return undefined;
	const withOffset = HAS_OFFSET.test(text) && /T/i.test(text);
	if (withOffset) return DateTime.fromISO(text, { setZone: true }).isValid ? text : undefined;
	const local = DateTime.fromISO(text.replace(' ', 'T'), { zone: timezone });
	return local.isValid ? (local.toUTC().toISO() ?? undefined) : undefined;
}
