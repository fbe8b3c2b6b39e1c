import type { Resource } from '../../../shared/items/operation';
import type { LmsRun } from '../../transport';
import * as archive from './archive.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as sync from './sync.operation';
import * as upsert from './upsert.operation';

/** The course resource: each operation listed once, for the form, the subtitle and the router. */
export const course: Resource<LmsRun> = {
	resource: 'course',
	label: 'Course',
	defaultOperation: 'upsert',
	operations: {
		upsert: {
			name: 'Create or Update',
			description: 'Create a new record, or update the current one if it already exists (upsert)',
			action: 'Create or update a course',
			operation: upsert,
		},
		get: {
			name: 'Get',
			description: 'Get one course of the catalog by its external ID',
			action: 'Get a course',
			operation: get,
		},
		getMany: {
			name: 'Get Many',
			description: 'List courses of the catalog',
			action: 'Get many courses',
			operation: getMany,
		},
		archive: {
			name: 'Archive',
			description: 'Archive a course by its external ID',
			action: 'Archive a course',
			operation: archive,
		},
		sync: {
			name: 'Sync Catalog',
			description:
				'Make the catalog match the input items: create or update only what changed, optionally archive what left',
			action: 'Sync the course catalog',
			operation: sync,
		},
	},
};
