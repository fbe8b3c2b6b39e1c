import type { ICredentialDataDecryptedObject, INodeParameters } from 'n8n-workflow';

import { COURSES_PATH } from './lmsSandbox';
import type { NodeUnderTest } from './runNode';

export const LMS_NODE_TYPE = 'n8n-nodes-learning-platform.learningPlatform';
export const XAPI_NODE_TYPE = 'n8n-nodes-learning-platform.xApi';
export const HTTP_NODE_TYPE = 'n8n-nodes-base.httpRequest';
export const LMS_CREDENTIAL = 'learningPlatformOAuth2Api';
export const XAPI_CREDENTIAL = 'xApiLrsApi';
export { COURSES_PATH };

const CONTINUE_ON_FAIL = 'continueRegularOutput' as const;

export function lmsCredentialData(
	sandbox: { url: string; clientId: string; clientSecret: string },
	requestsPerMinute: number,
): ICredentialDataDecryptedObject {
	return {
		baseUrl: sandbox.url,
		clientId: sandbox.clientId,
		clientSecret: sandbox.clientSecret,
		requestsPerMinute,
		accessToken: '',
	};
}

/** The package's node, taking its fields from each item by expression (as a user would map them). */
export function lmsNode(parameters: INodeParameters): NodeUnderTest {
	return {
		type: LMS_NODE_TYPE,
		typeVersion: 1,
		parameters,
		credentials: { [LMS_CREDENTIAL]: { id: 'bench-lms', name: 'Benchmark LMS' } },
		onError: CONTINUE_ON_FAIL,
	};
}

/** Each item's fields, mapped by expression as a user would map them. */
export const MAPPED_COURSE_FIELDS = {
	externalId: '={{ $json.externalId }}',
	name: '={{ $json.name }}',
	url: '={{ $json.url }}',
};

export function courseUpsertNode(options: INodeParameters = {}): NodeUnderTest {
	return lmsNode({ resource: 'course', operation: 'upsert', ...MAPPED_COURSE_FIELDS, options });
}

export interface CourseItem {
	externalId: string;
	name: string;
	url: string;
	[key: string]: string;
}

export function courseItems(count: number, prefix: string): CourseItem[] {
	return Array.from({ length: count }, (_, i) => ({
		externalId: `${prefix}-${i}`,
		name: `${prefix} course ${i}`,
		url: `https://learn.example.com/${prefix}/${i}`,
	}));
}

/**
 * n8n's HTTP Request node (4.2) posting the same body the package sends, with the package's
 * credential type, so that both authenticate and fetch tokens the same way. The body is built
 * from the item by one expression, as the HTTP Request node is usually set up.
 * `batching` is the node's own Options → Batching setting.
 */
export function httpCourseUpsertNode(
	baseUrl: string,
	batching?: { batchSize: number; batchInterval: number },
): NodeUnderTest {
	return {
		type: HTTP_NODE_TYPE,
		typeVersion: 4.2,
		parameters: {
			method: 'POST',
			url: `${baseUrl}${COURSES_PATH}`,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: LMS_CREDENTIAL,
			sendHeaders: true,
			headerParameters: { parameters: [{ name: 'Accept', value: 'application/json' }] },
			sendBody: true,
			contentType: 'json',
			specifyBody: 'json',
			jsonBody:
				'={{ JSON.stringify({ external_id: $json.externalId, name: $json.name, url: $json.url, prices_data: [] }) }}',
			options: batching ? { batching: { batch: batching } } : {},
		},
		credentials: { [LMS_CREDENTIAL]: { id: 'bench-lms', name: 'Benchmark LMS' } },
		onError: CONTINUE_ON_FAIL,
	};
}

/** The xAPI node sending each item's `statement` as JSON (no batch size: one statement a request). */
export function xapiSendNode(
	batchSize?: number,
	additionalFields?: INodeParameters,
): NodeUnderTest {
	return {
		type: XAPI_NODE_TYPE,
		typeVersion: 1,
		parameters: {
			resource: 'statement',
			operation: 'send',
			inputMode: 'json',
			statement: '={{ $json.statement }}',
			...(additionalFields && { additionalFields }),
			options: batchSize === undefined ? {} : { batchSize },
		},
		credentials: { [XAPI_CREDENTIAL]: { id: 'bench-lrs', name: 'Benchmark LRS' } },
		onError: CONTINUE_ON_FAIL,
	};
}
