import { DateTime } from 'luxon';

const HAS_OFFSET = /(Z|[+-]\d{2}(:?\d{2})?)$/i;

/**
 * A point in time as xAPI writes it. n8n's date pickers give local date-times without an
 * offset, and expressions like `{{ $now }}` give luxon DateTimes: both are read in the
 * workflow's time zone and sent in UTC. Text with an offset is kept as written. Returns
 * undefined for anything that is not a date-time.
 */
export function toXapiTimestamp(value: unknown, timezone: string): string | undefined {
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
	if (DateTime.isDateTime(value))
		return value.isValid ? (value.toUTC().toISO() ?? undefined) : undefined;
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	if (!/^\d{4}-\d{2}-\d{2}/.test(text)) return undefined;
	if (HAS_OFFSET.test(text) && /T/i.test(text)) {
		return DateTime.fromISO(text, { setZone: true }).isValid ? text : undefined;
	}
	const local = DateTime.fromISO(text.replace(' ', 'T'), { zone: timezone });
	return local.isValid ? (local.toUTC().toISO() ?? undefined) : undefined;
}
