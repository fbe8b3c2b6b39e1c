/* eslint-disable -- demo code, not part of the n8n package: the community-node rules do not apply */
import type { IDataObject } from 'n8n-workflow';

import { LMS_CREDENTIAL, LMS_NODE_TYPE } from '../../../harness/nodes';
import { runSingleNode } from '../../../harness/runNode';
import type { DemoContext } from '../run';

/** Courses of an older catalog that the current catalog file no longer lists. */
export const RETIRED_COURSES: IDataObject[] = [
	{ external_id: 'excel-2016-basics', name: 'Excel 2016 Basics', level: 'beginner' },
	{
		external_id: 'legacy-expense-tool',
		name: 'Filing Expenses in the Old Expense Tool',
		level: 'beginner',
	},
].map((course) => ({
	...course,
	url: `https://learn.example.com/courses/${String(course.external_id)}`,
}));

/**
 * Between the nights, courses of an older catalog reach the platform (pushed by another
 * workflow with the package's node): the file does not list them, so the next night's sync
 * archives them.
 */
export async function seedRetiredCourses(context: DemoContext): Promise<void> {
	const { sandbox } = context.services;
	console.log(
		"\n   Between the nights: last quarter's courses are pushed to the platform by another workflow",
	);
	const { error } = await runSingleNode({
		node: {
			type: LMS_NODE_TYPE,
			typeVersion: 1,
			parameters: {
				resource: 'course',
				operation: 'upsert',
				externalId: '={{ $json.external_id }}',
				name: '={{ $json.name }}',
				url: '={{ $json.url }}',
				additionalFields: { level: '={{ $json.level }}' },
				options: { waitForCompletion: true },
			},
			credentials: { [LMS_CREDENTIAL]: { id: 'lms-sandbox', name: 'LMS sandbox' } },
		},
		items: RETIRED_COURSES,
		source: 'dist',
		credentialsHelper: context.credentialsHelper,
	});
	const ids = RETIRED_COURSES.map((course) => String(course.external_id));
	console.log(
		`   ${ids.length} courses that have since been dropped from the catalog file: ${ids.join(', ')}`,
	);
	const stored = sandbox.state().courses;
	context.checks.check(
		`the sandbox holds them, active`,
		error === undefined && ids.every((id) => stored[id]?.status === 'active'),
		error ?? `stored: ${JSON.stringify(ids.map((id) => stored[id]?.status))}`,
	);
}
