import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/** The course picker: operations of both resources pick a course. */

/** A plain string (from an expression or an older workflow) is still accepted. */
export function coursePicker(description: string): INodeProperties {
	return {
		displayName: 'Course',
		name: 'externalId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
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

/** Upsert's External ID is a picker too, so switching operations never moves a picker's value. */
export function pickedCourse(fns: IExecuteFunctions, itemIndex: number): unknown {
	return fns.getNodeParameter('externalId', itemIndex, '', { extractValue: true });
}
