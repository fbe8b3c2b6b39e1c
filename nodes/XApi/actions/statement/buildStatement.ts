import { z } from 'zod';

import { toXapiTimestamp } from '../../helpers/time';
import { CUSTOM, verbDisplayWord } from '../../helpers/vocabulary';

/** Text the form needs; what an expression yields as nothing (or a number) is read as text. */
const requiredText = z.preprocess(
	(value) =>
		value === undefined || value === null ? '' : typeof value === 'number' ? String(value) : value,
	z.string().trim().min(1, 'is required'),
);
const optionalText = z
	.union([z.string(), z.number()])
	.optional()
	.transform((value) => (value === undefined ? undefined : String(value).trim() || undefined));

/** Shape only; xAPI rules are the validator's job. */
export const statementFormSchema = z
	.object({
		actorName: requiredText,
		actorEmail: requiredText.transform((value) => value.replace(/^mailto:/i, '')),
		verb: requiredText,
		customVerbId: optionalText,
		activityId: requiredText,
		activityType: requiredText,
		customActivityType: optionalText,
		activityName: requiredText,
		additionalFields: z
			.object({
				language: optionalText,
				activityDescription: optionalText,
				eclId: optionalText,
				scoreScaled: z.coerce.number().optional(),
				success: z.boolean().optional(),
				completion: z.boolean().optional(),
				duration: optionalText,
				registration: optionalText,
				categories: z
					.object({
						category: z
							.array(
								z.object({
									id: optionalText,
									name: optionalText,
									description: optionalText,
								}),
							)
							.optional(),
					})
					.optional(),
				instructorName: optionalText,
				instructorHomePage: optionalText,
				instructorAccountName: optionalText,
				timestamp: z.unknown().optional(),
				statementId: optionalText,
				idempotencyKey: optionalText,
			})
			.strict(),
	})
	.superRefine((form, ctx) => {
		if (form.verb === CUSTOM && !form.customVerbId) {
			ctx.addIssue({
				code: 'custom',
				path: ['customVerbId'],
				message: 'is required for a custom verb',
			});
		}
		if (form.activityType === CUSTOM && !form.customActivityType) {
			ctx.addIssue({
				code: 'custom',
				path: ['customActivityType'],
				message: 'is required for a custom activity type',
			});
		}
	});

export type StatementForm = z.infer<typeof statementFormSchema>;

export const DEFAULT_LANGUAGE = 'en-US';

/** Shaped as the platform records it; a timestamp the form could not read comes back apart. */
export function buildStatement(
	form: StatementForm,
	timezone: string,
): { statement: Record<string, unknown>; badTimestamp?: string } {
	const fields = form.additionalFields;
	const language = fields.language ?? DEFAULT_LANGUAGE;
	const inLanguage = (value: string | undefined) => (value ? { [language]: value } : undefined);

	const verbId = form.verb === CUSTOM ? (form.customVerbId as string) : form.verb;
	const activityType =
		form.activityType === CUSTOM ? (form.customActivityType as string) : form.activityType;

	const statement: Record<string, unknown> = {
		id: fields.statementId,
		actor: { name: form.actorName, mbox: `mailto:${form.actorEmail}` },
		verb: compact({ id: verbId, display: inLanguage(verbDisplayWord(verbId)) }),
		object: {
			objectType: 'Activity',
			id: withEclId(form.activityId, fields.eclId),
			definition: compact({
				type: activityType,
				name: inLanguage(form.activityName),
				description: inLanguage(fields.activityDescription),
			}),
		},
		result: resultOf(fields),
		context: contextOf(fields, inLanguage),
	};

	let badTimestamp: string | undefined;
	const rawTimestamp = fields.timestamp;
	if (rawTimestamp !== undefined && rawTimestamp !== null && rawTimestamp !== '') {
		const timestamp = toXapiTimestamp(rawTimestamp, timezone);
		if (timestamp) statement.timestamp = timestamp;
		else badTimestamp = String(rawTimestamp);
	}
	return { statement: compact(statement), badTimestamp };
}

function resultOf(fields: StatementForm['additionalFields']): Record<string, unknown> | undefined {
	const result = compact({
		score: fields.scoreScaled === undefined ? undefined : { scaled: fields.scoreScaled },
		success: fields.success,
		completion: fields.completion,
		duration: fields.duration === undefined ? undefined : isoDuration(fields.duration),
	});
	return Object.keys(result).length > 0 ? result : undefined;
}

function contextOf(
	fields: StatementForm['additionalFields'],
	inLanguage: (value: string | undefined) => Record<string, string> | undefined,
): Record<string, unknown> | undefined {
	const categories = (fields.categories?.category ?? [])
		.filter((category) => category.id || category.name || category.description)
		.map((category) => {
			const definition = compact({
				name: inLanguage(category.name),
				description: inLanguage(category.description),
			});
			return compact({
				objectType: 'Activity',
				id: category.id,
				definition: Object.keys(definition).length > 0 ? definition : undefined,
			});
		});
	const hasInstructor =
		fields.instructorName || fields.instructorHomePage || fields.instructorAccountName;
	const hasAccount = fields.instructorHomePage || fields.instructorAccountName;
	const context = compact({
		registration: fields.registration,
		contextActivities: categories.length > 0 ? { category: categories } : undefined,
		instructor: hasInstructor
			? compact({
					name: fields.instructorName,
					account: hasAccount
						? compact({ homePage: fields.instructorHomePage, name: fields.instructorAccountName })
						: undefined,
				})
			: undefined,
	});
	return Object.keys(context).length > 0 ? context : undefined;
}

/** Adds `ecl_id` to the activity IRI's query, before any fragment, leaving the rest as written. */
export function withEclId(activityId: string, eclId: string | undefined): string {
	if (!eclId) return activityId;
	const hash = activityId.indexOf('#');
	const base = hash < 0 ? activityId : activityId.slice(0, hash);
	const fragment = hash < 0 ? '' : activityId.slice(hash);
	const separator = base.includes('?') ? (/[?&]$/.test(base) ? '' : '&') : '?';
	return `${base}${separator}ecl_id=${encodeURIComponent(eclId)}${fragment}`;
}

/** A plain number of seconds becomes `PT…S`; anything else is left for the validator to judge. */
function isoDuration(value: string): string {
	return /^\d+(\.\d+)?$/.test(value) ? `PT${value}S` : value;
}

function compact<T extends Record<string, unknown>>(value: T): T {
	const out: Record<string, unknown> = {};
	for (const [key, entry] of Object.entries(value)) if (entry !== undefined) out[key] = entry;
	return out as T;
}
