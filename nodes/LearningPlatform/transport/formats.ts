import { z } from 'zod';

import { typeMessages } from '../../shared/form/input';

const ISO_DATE_TIME =
	/^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?$/i;

function refuse(ctx: z.RefinementCtx, message: string): never {
	ctx.addIssue({ code: z.ZodIssueCode.custom, message });
	return z.NEVER;
}

function isRealDate(value: string): boolean {
	const [y, m, d] = value.split('-').map(Number);
	const date = new Date(Date.UTC(y, m - 1, d));
	return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** A date-time without offset, or at midnight, gives its date: else the zone decides the day. */
export const flexibleDate = z
	.string()
	.trim()
	.transform((value, ctx) => {
		const match = ISO_DATE_TIME.exec(value);
		if (match?.[3] && !/^00:00(:00(\.0+)?)?$/.test(match[2])) {
			return refuse(
				ctx,
				`has a time and a time zone (${value}); give the date as YYYY-MM-DD, e.g. {{ DateTime.fromISO($json.date).toFormat('yyyy-MM-dd') }} for the date in the workflow's time zone`,
			);
		}
		const date = match?.[1] ?? value;
		if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return refuse(ctx, 'must be a date as YYYY-MM-DD');
		return isRealDate(date) ? date : refuse(ctx, 'is not a real calendar date');
	});

/** An offset is refused: the API's format cannot carry it, and dropping it would move the time. */
export const flexibleDateTime = z
	.string()
	.trim()
	.transform((value, ctx) => {
		const match = ISO_DATE_TIME.exec(value);
		if (match?.[3]) {
			return refuse(
				ctx,
				`has a time zone (${value}), which the platform's format cannot carry; give the local time as YYYY-MM-DD HH:MM:SS`,
			);
		}
		const dateTime = match
			? `${match[1]} ${match[2].slice(0, 8).padEnd(8, ':00').slice(0, 8)}`
			: value;
		if (!/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(dateTime)) {
			return refuse(ctx, 'must be a date and time as YYYY-MM-DD HH:MM:SS');
		}
		const [h, min, sec] = dateTime.slice(11).split(':').map(Number);
		return isRealDate(dateTime.slice(0, 10)) && h < 24 && min < 60 && sec < 60
			? dateTime
			: refuse(ctx, 'is not a real date and time');
	});

/** Only web addresses: `javascript:`, `data:` and the like are refused. */
export const httpUrl = z
	.string(typeMessages(undefined, 'must be text'))
	.trim()
	.max(2048, 'must be at most 2048 characters')
	.refine((value) => {
		const url = URL.canParse(value) ? new URL(value) : undefined;
		return (url?.protocol === 'http:' || url?.protocol === 'https:') && url.hostname !== '';
	}, 'must be a full http(s) URL such as https://…');

/** A positive, finite amount: a number, or text holding a plain decimal. Nothing is coerced. */
export const positiveAmount = z.unknown().transform((value, ctx) => {
	const number =
		typeof value === 'number'
			? value
			: typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)
				? Number(value)
				: Number.NaN;
	if (Number.isNaN(number)) return refuse(ctx, 'must be a number');
	if (!Number.isFinite(number)) return refuse(ctx, 'must be a finite number');
	return number > 0 ? number : refuse(ctx, 'must be greater than 0');
});
