import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { LearningPlatformOAuth2Api } from '../../../credentials/LearningPlatformOAuth2Api.credentials';
import { LearningPlatform } from '../../../nodes/LearningPlatform/LearningPlatform.node';

const { description } = new LearningPlatform();

function find(name: string, resource?: string, operation?: string): INodeProperties {
	const found = description.properties.find(
		(p) =>
			p.name === name &&
			(!resource || p.displayOptions?.show?.resource?.includes(resource)) &&
			(!operation || p.displayOptions?.show?.operation?.includes(operation)),
	);
	if (!found) throw new Error(`no parameter ${name} for ${resource}/${operation}`);
	return found;
}

const values = (p: INodeProperties | undefined) =>
	(p?.options as INodePropertyOptions[]).map((o) => o.value).sort();
const inCollection = (p: INodeProperties, name: string) =>
	(p.options as INodeProperties[]).find((o) => o.name === name);

describe('the LMS node keeps the public interface', () => {
	test('names, resources and operations', () => {
		expect(description.name).toBe('learningPlatform');
		expect(description.usableAsTool).toBe(true);
		expect(description.credentials).toEqual([
			{ name: 'learningPlatformOAuth2Api', required: true },
		]);
		expect(values(find('resource'))).toEqual(['assignment', 'course', 'transaction']);
		expect(values(find('operation', 'course'))).toEqual([
			'archive',
			'get',
			'getMany',
			'sync',
			'upsert',
		]);
		expect(values(find('operation', 'assignment'))).toEqual([
			'assign',
			'complete',
			'start',
			'sync',
			'withdraw',
		]);
		expect(values(find('operation', 'transaction'))).toEqual(['get', 'wait']);
	});

	test('every documented enum is an options list with exactly the documented values', () => {
		const extra = find('additionalFields', 'course', 'upsert');
		expect(values(inCollection(extra, 'contentType'))).toEqual(['article', 'course', 'video']);
		expect(values(inCollection(extra, 'courseType'))).toEqual(['article', 'course', 'video']);
		expect(values(inCollection(extra, 'status'))).toEqual(['active', 'archived']);
		expect(values(inCollection(extra, 'level'))).toEqual(['advanced', 'beginner', 'intermediate']);
		const prices = find('prices', 'course', 'upsert');
		const currency = (prices.options as Array<{ values: INodeProperties[] }>)[0].values.find(
			(v) => v.name === 'currency',
		);
		expect(values(currency)).toEqual(['INR', 'USD']);
	});

	test('parameter names of every operation', () => {
		for (const op of ['upsert', 'archive'])
			expect(find('externalId', 'course', op).required).toBe(true);
		for (const name of ['name', 'url', 'prices', 'additionalFields', 'options'])
			find(name, 'course', 'upsert');
		for (const name of ['returnAll', 'limit', 'options']) find(name, 'course', 'getMany');
		for (const op of ['upsert', 'sync']) {
			for (const name of ['externalId', 'name', 'url', 'prices', 'additionalFields', 'course'])
				find(name, 'course', op);
			const mode = find('inputMode', 'course', op);
			expect(values(mode)).toEqual(['fields', 'json']);
			expect(mode.default).toBe('fields');
			expect(find('course', 'course', op).type).toBe('json');
		}
		const syncOptions = find('options', 'course', 'sync');
		expect(
			(syncOptions.options as INodeProperties[]).map((o) => [o.name, o.default]).sort(),
		).toEqual([
			['approvedPlan', ''],
			['archiveAfterDays', 0],
			['archiveMissing', false],
			['dryRun', false],
			['maxArchiveShare', 10],
			['maxWritesPerRun', 0],
			['memoryKey', ''],
			['output', 'all'],
			['skipUnchanged', true],
			['timeout', 120],
			['waitForCompletion', true],
		]);
		for (const name of ['email', 'externalId', 'additionalFields'])
			find(name, 'assignment', 'sync');
		const rosterOptions = find('options', 'assignment', 'sync');
		expect(
			(rosterOptions.options as INodeProperties[]).map((o) => [o.name, o.default]).sort(),
		).toEqual([
			['approvedPlan', ''],
			['dryRun', false],
			['maxWithdrawShare', 10],
			['maxWritesPerRun', 0],
			['memoryKey', ''],
			['output', 'all'],
			['skipUnchanged', true],
			['timeout', 120],
			['waitForCompletion', true],
			['withdrawAfterDays', 0],
			['withdrawMissing', false],
		]);
		for (const op of ['assign', 'withdraw', 'complete', 'start']) {
			find('email', 'assignment', op);
			find('externalId', 'assignment', op);
			const options = find('options', 'assignment', op);
			expect((options.options as INodeProperties[]).map((o) => o.name).sort()).toEqual([
				'timeout',
				'waitForCompletion',
			]);
		}
		expect(find('endDate', 'assignment', 'complete').required).toBe(true);
		const assignExtra = find('additionalFields', 'assignment', 'assign');
		expect((assignExtra.options as INodeProperties[]).map((o) => o.name).sort()).toEqual([
			'assignedDate',
			'dueDate',
		]);
		const waitOptions = find('options', 'transaction', 'wait');
		expect((waitOptions.options as INodeProperties[]).map((o) => o.name).sort()).toEqual([
			'pollInterval',
			'timeout',
		]);
		find('transactionId', 'transaction', 'get');
	});

	test('the credential has the documented fields, a test and an expirable token', () => {
		const credential = new LearningPlatformOAuth2Api();
		expect(credential.name).toBe('learningPlatformOAuth2Api');
		const names = credential.properties.map((p) => p.name);
		expect(names).toEqual(
			expect.arrayContaining([
				'baseUrl',
				'clientId',
				'clientSecret',
				'requestsPerMinute',
				'accessToken',
			]),
		);
		expect(credential.properties.find((p) => p.name === 'requestsPerMinute')?.default).toBe(300);
		expect(
			credential.properties.find((p) => p.name === 'accessToken')?.typeOptions?.expirable,
		).toBe(true);
		expect(credential.test.request.url).toBe('/api/developer/v2/courses.json');
	});
});
