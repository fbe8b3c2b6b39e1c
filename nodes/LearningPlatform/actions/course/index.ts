import type { Resource } from '../../../shared/items/resources';
import type { LmsRun } from '../../transport';
import * as archive from './archive.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as sync from './sync.operation';
import * as upsert from './upsert.operation';
import { CONFIRMED_OR_WHY } from '../operationForm';

export const course: Resource<LmsRun> = {
	resource: 'course',
	label: 'Course',
	defaultOperation: 'upsert',
	operations: {
		upsert: {
			name: 'Create or Update',
			description: 'Create a new record, or update the current one if it already exists (upsert)',
			action: 'Create or update a course',
			toolDescription:
				'Creates a course, or updates the one with the same external ID. Needs the external ID, name and URL. ' +
				`${CONFIRMED_OR_WHY}, with the transaction ID`,
			operation: upsert,
		},
		get: {
			name: 'Get',
			description: 'Get one course of the catalog by its external ID',
			action: 'Get a course',
			toolDescription:
				'Gets one course of the catalog by its external ID. Answers with the course as the catalog lists it (id, external_id, name, url, prices_data, tags), or an error saying no course has that external ID',
			operation: get,
		},
		getMany: {
			name: 'Get Many',
			description: 'List courses of the catalog',
			action: 'Get many courses',
			toolDescription:
				'Lists courses of the catalog, up to Limit (or all). Answers with one item per course, by default 10 fields each: id, external_id, name, url, description, tags, published_at, duration_sec, is_private, prices_data',
			operation: getMany,
		},
		archive: {
			name: 'Archive',
			description: 'Archive a course by its external ID',
			action: 'Archive a course',
			toolDescription:
				'Archives a course by its external ID. ' +
				`${CONFIRMED_OR_WHY}, and which fields the platform cleared (clearedFields)`,
			operation: archive,
		},
		sync: {
			name: 'Sync Catalog',
			description:
				'Make the catalog match the input items: create or update only what changed, optionally archive what left',
			action: 'Sync the course catalog',
			dryRunAction: 'Dry run: sync the course catalog',
			toolDescription:
				'Makes the course catalog match the given courses (external ID, name, URL each): creates or updates only what changed. Answers per course whether it was created, updated or unchanged',
			operation: sync,
		},
	},
};
