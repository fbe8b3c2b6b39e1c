import { createHash } from 'crypto';

/** Never changes (published in the README): a new namespace would store resent events twice. */
export const STATEMENT_ID_NAMESPACE = '1c00e23b-464b-4b02-b45d-d56d4ad34dd3';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function uuidBytes(uuid: string): Buffer {
	if (!UUID.test(uuid)) throw new Error(`Not a UUID: ${uuid}`);
	return Buffer.from(uuid.replace(/-/g, ''), 'hex');
}

function uuidText(bytes: Buffer): string {
	const hex = bytes.toString('hex');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** RFC 9562 section 5.5 (RFC 4122 section 4.3); the same as Python's `uuid.uuid5`. */
export function uuidV5(name: string, namespace: string): string {
	const digest = createHash('sha1')
		.update(uuidBytes(namespace))
		.update(Buffer.from(name, 'utf8'))
		.digest();
	const bytes = digest.subarray(0, 16);
	bytes[6] = (bytes[6] & 0x0f) | 0x50;
	bytes[8] = (bytes[8] & 0x3f) | 0x80;
	return uuidText(bytes);
}

/** An expression's stray outer space is not another event; case is kept ("Order-1" ≠ "order-1"). */
export function statementIdFor(idempotencyKey: string): string {
	return uuidV5(idempotencyKey.trim(), STATEMENT_ID_NAMESPACE);
}
