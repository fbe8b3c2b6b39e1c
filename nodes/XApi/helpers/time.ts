import { DateTime } from 'luxon';

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
