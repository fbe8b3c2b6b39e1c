/** Attachment headers in a statement (xAPI-Data 2.4.11) and the signature rule (2.6). */

import { isPlainObject, quote } from './describe';
import { iri, irl, languageMap, mediaType, numberWhere, sha2 } from './primitives';
import { problem, withRules, type Problems } from './schema';
import { strictObject } from './strictObject';

const SIGNATURE_USAGE_TYPE = 'http://adlnet.gov/expapi/attachments/signature';
const SIGNATURE_CONTENT_TYPE = 'application/octet-stream';

const length = numberWhere(
	(value) => Number.isInteger(value) && value >= 0,
	(value) => `${value} is not a valid length: give the size in bytes as a whole number (0 or more)`,
);

/** Signatures are JSON web signatures sent as application/octet-stream (xAPI-Data 2.6). */
function signatureRules(attachment: unknown): Problems {
	if (!isPlainObject(attachment) || attachment.usageType !== SIGNATURE_USAGE_TYPE) return undefined;
	const contentType = attachment.contentType;
	if (contentType === SIGNATURE_CONTENT_TYPE || typeof contentType !== 'string') return undefined;
	return problem(
		`${quote(contentType)} is not allowed for a signature: signature attachments use "${SIGNATURE_CONTENT_TYPE}"`,
		['contentType'],
	);
}

export const attachmentShape = strictObject({
	usageType: iri,
	display: languageMap,
	description: languageMap.optional(),
	contentType: mediaType,
	length,
	sha2,
	fileUrl: irl.optional(),
});

export const attachment = withRules(attachmentShape, signatureRules);
