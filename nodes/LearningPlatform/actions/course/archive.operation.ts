import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import type { PoolPlace } from '../../../shared/pacing/time';
import { parseItemInput } from '../../../shared/form/input';
import type { LmsRun } from '../../transport';
import { archiveListedCourse } from '../../transport/courseArchive';
import {
	courseWriteShape,
	coursePicker,
	readCourseWrite,
	writeOptions,
	writeSettings,
} from '../fields';
import { operationForm } from '../operationForm';
import { additionalFieldsProperty, courseValuesSchema, spoken, unlistedFieldNames } from './form';
import { findCourse } from './findCourse';

const properties: INodeProperties[] = [
	coursePicker(
		'The course to archive. What the catalog listing has of it is sent back with status archived. Archived content cannot be made active again.',
	),
	{
		// Generated from the field table, so it names exactly the fields the listing lacks.
		displayName: `The catalog listing has no ${spoken(unlistedFieldNames('archive'))}. Give them below to keep them: fields neither the listing nor you supply are cleared by the platform (the output names them).`,
		name: 'archiveNotice',
		type: 'notice',
		default: '',
	},
	additionalFieldsProperty(
		'archive',
		'Values for what the catalog listing cannot return; a value given here also replaces the listed one',
	),
	writeOptions(),
];

const form = operationForm(
	['course', 'archive'],
	properties,
	z.object(courseWriteShape),
	readCourseWrite,
);

export const description = form.description;

const valuesSchema = courseValuesSchema('archive', false);

export function prepare(fns: IExecuteFunctions, itemIndex: number) {
	const { externalId, options } = form.prepare(fns, itemIndex);
	const values = parseItemInput(
		fns.getNode(),
		itemIndex,
		valuesSchema,
		{ top: {}, additionalFields: fns.getNodeParameter('additionalFields', itemIndex, {}) },
		'Invalid input',
		properties,
	);
	return { externalId, values, options };
}

export async function execute(
	run: LmsRun,
	input: ReturnType<typeof prepare>,
	itemIndex: number,
	place: PoolPlace,
): Promise<IDataObject> {
	const write = writeSettings(run, input.options, place);
	const current = await findCourse(run, itemIndex, input.externalId, write.deadline, 'Archive');
	return await archiveListedCourse(run, itemIndex, input.externalId, current, input.values, write);
}
