import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { isPlainObject } from '../items/input';

/** Static data per node and client; members grouped so rosters stay small; bad shapes dropped. */
export const REMOVED = '!';
export const REMOVAL_PENDING = '?';
export const OURS_UNCONFIRMED = '*';

const MEMBERS = '#';
const SEPARATOR = '\u0000';
const VALUE = /^[\w!?*\-.:]{1,80}$/;

export interface Memory {
	entries: Map<string, string>;
	dropped: number;
	save(): void;
}

export type MemoryStore = Pick<IExecuteFunctions, 'getWorkflowStaticData'>;

export function openMemory(store: MemoryStore, slot: string, scope: string): Memory {
	const data = store.getWorkflowStaticData('node');
	let dropped = 0;
	if (!isPlainObject(data[slot])) {
		if (data[slot] !== undefined) dropped++;
		data[slot] = {};
	}
	const scopes = data[slot] as IDataObject;
	const stored = scopes[scope];
	if (stored !== undefined && !isPlainObject(stored)) dropped++;
	const { [MEMBERS]: table, ...rest } = isPlainObject(stored) ? stored : {};
	const members = typeof table === 'string' ? table.split('\n') : [];
	const entries = new Map<string, string>();
	for (const [key, value] of Object.entries(rest)) {
		if (typeof value === 'string' && !value.includes(' ')) {
			if (VALUE.test(value)) entries.set(key, value);
			else dropped++;
			continue;
		}
		for (const part of typeof value === 'string' ? value.split('|') : ['']) {
			const [index, remembered] = part.split(' ');
			const member = members[Number(index)];
			if (member && /^\d+$/.test(index) && VALUE.test(remembered ?? '')) {
				entries.set(key + SEPARATOR + member, remembered);
			} else dropped++;
		}
	}
	return {
		entries,
		dropped,
		save() {
			scopes[scope] = encode(entries);
			// Set through n8n's proxy again, so the data is marked changed at the end: in n8n 2.40.7 a
			// run overlapped by a newer run of its workflow lost the mark, and its memory was not saved.
			data[slot] = scopes;
		},
	};
}

function encode(entries: Map<string, string>): IDataObject {
	const flat: IDataObject = {};
	const groups = new Map<string, string[]>();
	const numbers = new Map<string, number>();
	for (const [key, value] of entries) {
		if (!key.includes(SEPARATOR)) {
			flat[key] = value;
			continue;
		}
		const [group, member] = splitKey(key);
		let number = numbers.get(member);
		if (number === undefined) numbers.set(member, (number = numbers.size));
		const list = groups.get(group) ?? [];
		list.push(`${number} ${value}`);
		groups.set(group, list);
	}
	for (const [group, list] of groups) flat[group] = list.join('|');
	if (numbers.size > 0) flat[MEMBERS] = [...numbers.keys()].join('\n');
	return flat;
}

export function memberKey(group: string, member: string): string {
	return group + SEPARATOR + member;
}

export function splitKey(key: string): [string, string] {
	const cut = key.indexOf(SEPARATOR);
	return [key.slice(0, cut), key.slice(cut + 1)];
}
