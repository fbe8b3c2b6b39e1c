import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

/** Output items for one input item, each paired with it. */
export function pairedItems(
	data: IDataObject | IDataObject[],
	itemIndex: number,
): INodeExecutionData[] {
	const list = Array.isArray(data) ? data : [data];
	return list.map((json) => ({ json, pairedItem: { item: itemIndex } }));
}

/** The item Continue On Fail emits: the error message plus whatever the error names. */
export function errorItem(error: unknown, itemIndex: number): INodeExecutionData {
	const e = error as {
		message?: string;
		description?: string | null;
		httpCode?: string | null;
		context?: IDataObject;
	};
	const json: IDataObject = { error: e?.message ?? String(error) };
	if (e?.description) json.description = e.description;
	if (e?.httpCode) json.httpCode = e.httpCode;
	const details = e?.context?.details;
	if (details && typeof details === 'object') Object.assign(json, details);
	return { json, pairedItem: { item: itemIndex } };
}
