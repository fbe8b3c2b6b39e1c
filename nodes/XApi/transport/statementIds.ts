import { createHash } from 'crypto';

import type { Statement } from '../validation';

/** A statement whose id is fixed before the first attempt: a repeat cannot store it twice. */
export type StatementWithId = Statement & { id: string };

/** Never changes (published in the README): a new namespace would store resent events twice. */
export const STATEMENT_ID_NAMESPACE = '1c00e23b-464b-4b02-b45d-d56d4ad34dd3';

/** RFC 9562 section 5.5 (RFC 4122 section 4.3); the same as Python's `uuid.uuid5`. */
export function uuidV5(name: string, namespace: string): string {
	const bytes = createHash('sha1')
		.update(Buffer.from(namespace.replace(/-/g, ''), 'hex'))
		.update(Buffer.from(name, 'utf8'))
		.digest()
		.subarray(0, 16);
	bytes[6] = (bytes[6] & 0x0f) | 0x50;
	bytes[8] = (bytes[8] & 0x3f) | 0x80;
	return bytes.toString('hex').replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-');
}

/** An expression's stray outer space is not another event; case is kept ("Order-1" ≠ "order-1"). */
export function statementIdFor(idempotencyKey: string): string {
	return uuidV5(idempotencyKey.trim(), STATEMENT_ID_NAMESPACE);
}
