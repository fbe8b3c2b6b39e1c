import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/**
 * The course an operation is about: picked from the catalog ("From List", searched by name) or
 * given by its external id. The parameter keeps its name `externalId`; a plain string (from an
 * expression or an older workflow) is still accepted.
 */
export function coursePicker(
	description: string,
	{
		displayName = 'Course',
		firstMode = 'list',
	}: { displayName?: string; firstMode?: 'list' | 'id' } = {},
): INodeProperties {
	return {
		displayName,
		name: 'externalId',
		type: 'resourceLocator',
		default: { mode: firstMode, value: '' },
		required: true,
		description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a course…',
				typeOptions: { searchListMethod: 'searchCourses', searchable: true },
			},
			{
				displayName: 'By External ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. onboarding-101',
			},
		],
	};
}

/**
 * The picked course's external id, whichever way it was given. (Upsert shares the parameter
 * name: its External ID is a picker too, typed by default, so that switching operations in the
 * editor never carries a picker's value into a text field.)
 */
export function pickedCourse(fns: IExecuteFunctions, itemIndex: number): unknown {
	return fns.getNodeParameter('externalId', itemIndex, '', { extractValue: true });
}
