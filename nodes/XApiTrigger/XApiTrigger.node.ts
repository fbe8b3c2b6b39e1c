import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { describeIssue } from '../shared/validation';
import { filterProperties, filtersSchema, statementQuery } from '../XApi/helpers/filters';
import { COMPLETED_VERB } from '../XApi/helpers/vocabulary';
import { endpointOf, lrsCredentials } from '../XApi/transport';
import { prune, readCursor } from './cursor';
import { latestStatement, readNewStatements, startingCursor } from './newStatements';

export class XApiTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'xAPI Trigger',
		name: 'xApiTrigger',
		icon: { light: 'file:../XApi/xApi.svg', dark: 'file:../XApi/xApi.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{ $parameter["filters"] && $parameter["filters"].verb ? "New " + $parameter["filters"].verb.split("/").pop() + " statements" : "New statements" }}',
		description: 'Starts the workflow when new xAPI statements arrive in a learning record store',
		defaults: { name: 'xAPI Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'xApiLrsApi', required: true }],
		properties: [
			{
				displayName:
					'Each new statement that matches the filters starts the workflow once, oldest first. After activation (or a change of filters or record store), only statements stored from then on count as new.',
				name: 'triggerNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Filters',
				name: 'filters',
				type: 'collection',
				placeholder: 'Add filter',
				default: { verb: COMPLETED_VERB },
				options: filterProperties({ withTimeAndOrder: false }),
			},
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const qs = pollQuery(this);
		if (this.getMode() === 'manual') {
			// A manual test shows the latest match as sample data and leaves the cursor alone.
			const latest = await latestStatement.call(this, qs);
			return latest ? [this.helpers.returnJsonArray([latest])] : null;
		}

		const endpoint = endpointOf.call(this, await lrsCredentials.call(this));
		const key = cursorKey(endpoint, qs);
		const staticData = this.getWorkflowStaticData('node');
		const cursor = readCursor(staticData.cursor, key);
		if (!cursor) {
			staticData.cursor = (await startingCursor.call(this, qs, key)) as unknown as IDataObject;
			return null;
		}
		const statements = await readNewStatements.call(this, qs, cursor);
		staticData.cursor = prune(cursor) as unknown as IDataObject;
		return statements.length > 0 ? [this.helpers.returnJsonArray(statements)] : null;
	}
}

function pollQuery(context: IPollFunctions): IDataObject {
	const parsed = filtersSchema.safeParse(context.getNodeParameter('filters', {}));
	if (!parsed.success) {
		const problems = parsed.error.issues.map((issue) => describeIssue(issue, 'filters'));
		throw new NodeOperationError(context.getNode(), `Invalid filters: ${problems.join('; ')}`);
	}
	const query = statementQuery(parsed.data, context.getTimezone());
	if ('problem' in query) {
		throw new NodeOperationError(context.getNode(), `Invalid filters: ${query.problem}`);
	}
	return query.qs;
}

/** A cursor belongs to one record store and one set of filters; changing either starts afresh. */
function cursorKey(endpoint: string, qs: IDataObject): string {
	const sorted = Object.keys(qs)
		.sort()
		.map((name) => `${name}=${String(qs[name])}`);
	return `${endpoint}?${sorted.join('&')}`;
}
