import type { IDataObject } from 'n8n-workflow';

export interface PreparedItem<Input> {
	itemIndex: number;
	input: Input;
}

export type ItemOutcome =
	| { status: 'done'; json: IDataObject | IDataObject[] }
	| { status: 'failed'; error: Error }
	| { status: 'notSent'; reason?: string };
