import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { optionsCollection, isPlainObject } from '../shared/form/input';
import { filtersCollection, statementQuery } from '../XApi/helpers/filters';
import { triggerSimplifiedStatement } from '../XApi/helpers/output';
import { field } from '../XApi/helpers/statementInput';
import { COMPLETED_VERB } from '../XApi/helpers/vocabulary';
import { openLrsRun } from '../XApi/transport/run';
import { issueMessage, issuePath } from '../shared/request/body';
import { withFailure } from '../shared/request/failure';
import { readCursor, savedCursor } from './cursor';
import type { TriggerRun } from './newStatements';
import { latestStatement, readNewStatements, startingCursor } from './newStatements';
import { isAnyCompleted, triggerVerbFilter, verbsOf } from './verbs';

export class XApiTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'xAPI Trigger',
		name: 'xApiTrigger',
		icon: { light: 'file:../XApi/xApi.svg', dark: 'file:../XApi/xApi.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{ $parameter["filters"] && $parameter["filters"].verb ? "New " + String($parameter["filters"].verb).trim().split(/\\s+/)[0].split("/").pop() + " statements" : "New statements" }}',
		description: 'Starts the workflow when new xAPI statements arrive in a learning record store',
		defaults: { name: 'xAPI Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'xApiLrsApi', required: true }],
		properties: [
			field(
				'Each new statement that matches the filters starts the workflow once, oldest first. After activation (or a change of filters or record store), only statements stored from then on count as new.',
				'triggerNotice',
				{ type: 'notice' },
			),
			filtersCollection(triggerVerbFilter),
			optionsCollection([
				field('Simplify', 'simplify', {
					type: 'boolean',
					default: false,
					description:
						'Whether to output flat fields a workflow usually needs (email, name, verb, course, score, success, time) with the full statement under "statement", instead of the statement as the record store sent it',
				}),
			]),
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const { qs, verbs } = pollFilters(this);
		// An xAPI statements query takes one verb: several verbs are one query each.
		const queries = verbs.length === 0 ? [qs] : verbs.map((verb) => ({ ...qs, verb }));
		const run = (await openLrsRun(this)) as TriggerRun;
		if (this.getMode() === 'manual') {
			// A manual test shows the latest match as sample data and leaves the cursor alone.
			const latest = await latestStatement(run, queries);
			return latest ? [emitted(this, run, [latest])] : null;
		}
		const key = cursorKey(run.endpoint, qs, verbs);
		const continuing = isAnyCompleted(verbs) ? [cursorKey(run.endpoint, qs, [COMPLETED_VERB])] : [];
		const staticData = this.getWorkflowStaticData('node');
		const cursor = readCursor(staticData.cursor, key, continuing);
		if (!cursor) {
			staticData.cursor = savedCursor(await startingCursor(run, queries, key));
			return null;
		}
		const statements = await readNewStatements(run, queries, cursor);
		staticData.cursor = savedCursor(cursor);
		return statements.length > 0 ? [emitted(this, run, statements)] : null;
	}
}

/** Raw by default, so saved workflows keep working; masks every credential value the store echoed. */
function emitted(fns: IPollFunctions, run: TriggerRun, statements: IDataObject[]) {
	const { simplify } = fns.getNodeParameter('options', {}) as IDataObject;
	const shaped = simplify === true ? statements.map(triggerSimplifiedStatement) : statements;
	return fns.helpers.returnJsonArray(run.maskOutput(shaped));
}

/** Filters that cannot be polled fail every poll alike: a setting to correct, not an input. */
function pollFilters(fns: IPollFunctions): { qs: IDataObject; verbs: string[] } {
	const filters = fns.getNodeParameter('filters', {}) as unknown;
	const { verb, ...others } = isPlainObject(filters) ? filters : { verb: undefined };
	const verbs = verbsOf(verb);
	const query = statementQuery(fns.getTimezone()).safeParse(
		isPlainObject(filters) ? others : filters,
	);
	if ('verbs' in verbs && query.success) return { qs: query.data, verbs: verbs.verbs };
	const problems = query.error?.issues.map(
		(issue) => `${issuePath(['filters', ...issue.path])}: ${issueMessage(issue)}`,
	);
	const problem = 'problem' in verbs ? verbs.problem : problems?.join('; ');
	throw withFailure(new NodeOperationError(fns.getNode(), `Invalid filters: ${problem}`), {
		cause: 'configuration-invalid',
	});
}

/** A cursor belongs to one record store and one set of filters; changing either starts afresh. */
function cursorKey(endpoint: string, filters: IDataObject, verbs: string[]): string {
	const qs = verbs.length === 0 ? filters : { ...filters, verb: [...verbs].sort().join(' ') };
	const names = Object.keys(qs).sort();
	return `${endpoint}?${names.map((name) => `${name}=${String(qs[name])}`).join('&')}`;
}
