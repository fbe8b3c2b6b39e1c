/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { IDataObject } from 'n8n-workflow';

import { datesFingerprint, pairId } from '../../nodes/LearningPlatform/transport/assignmentSync';
import { openMemory } from '../../nodes/shared/sync/memory';
import { cacheDir, n8nInstallDirOf, node24Binary } from '../../harness/paths';
import { check, round } from '../lib/stats';
import type { Row } from '../lib/table';
import type { BenchmarkOutcome } from './types';

const LEARNERS = 20_000;
const COURSES = ['compliance-101', 'security-awareness', 'onboarding-essentials'];
const N8N_VERSION = '2.40.7';
/** Confirmed writes recorded per call if the memory lived in processed data (a crash loses at most one batch). */
const RECORD_BATCH = 100;

interface Measured {
	bytes: number;
	saveMs?: number;
	recordMs?: number;
	rowBytes?: number;
	updateMs?: number;
}

/**
 * Where a sync's memory could live in n8n's own database, for a 60,000-pair roster: the
 * workflow's static data (today), processed data (the deduplication helpers) and a data table.
 * Each is stored in a SQLite file the way n8n stores it (same tables and value shapes, read from
 * n8n 2.40.7 and 1.123.81), by n8n's own Node and sqlite3; bytes are the file's growth.
 */
export const ROSTER_MEMORY = {
	owner: 'bench',
	slot: 'syncedAssignments',
	scope: 'client',
	grouped: true,
};

/** The 60,000-pair roster's memory as Sync Assignments saves it in the node's static data. */
export function savedRosterMemory(): { entries: Map<string, string>; nodeData: IDataObject } {
	const entries = new Map<string, string>();
	for (let n = 0; n < LEARNERS; n++) {
		for (const course of COURSES) {
			const dueDate = `2026-${String(1 + (n % 12)).padStart(2, '0')}-15`;
			entries.set(
				pairId(`employee${n}@example.com`, course),
				datesFingerprint({ email: '', externalId: course, dueDate }),
			);
		}
	}
	const nodeData: IDataObject = {};
	const memory = openMemory({ getWorkflowStaticData: () => nodeData }, ROSTER_MEMORY);
	for (const [key, value] of entries) memory.entries.set(key, value);
	memory.save();
	return { entries, nodeData };
}

export async function runStoresBenchmark(): Promise<BenchmarkOutcome> {
	const { entries, nodeData } = savedRosterMemory();
	const pairs = entries.size;
	const staticData = { 'node:Sync assignments': nodeData };
	const jsonBytes = Buffer.byteLength(JSON.stringify(staticData));

	const sqlite3 = path.join(n8nInstallDirOf(N8N_VERSION), 'node_modules', 'sqlite3');
	const notes: string[] = [];
	let measured: { staticData: Measured; processed: Measured; dataTable: Measured } | undefined;
	if (fs.existsSync(node24Binary) && fs.existsSync(sqlite3)) {
		const probe = spawnSync(
			node24Binary,
			[path.join(__dirname, '..', 'stores', 'sqliteProbe.cjs')],
			{
				input: JSON.stringify({
					sqlite3,
					file: path.join(os.tmpdir(), `lp-stores-${process.pid}.sqlite`),
					staticData,
					pairs: [...entries],
				}),
				maxBuffer: 1 << 20,
				encoding: 'utf8',
			},
		);
		if (probe.status !== 0) throw new Error(`The SQLite probe failed: ${probe.stderr}`);
		measured = JSON.parse(probe.stdout);
	} else {
		notes.push(
			`n8n ${N8N_VERSION} is not installed under ${cacheDir} (scripts/install-n8n.sh 2): the SQLite figures were not measured.`,
		);
	}
	const perPair = (bytes?: number) =>
		bytes === undefined ? 'not measured' : `${round(bytes / pairs, 1)}`;
	const calls = pairs / RECORD_BATCH;
	const processedNightMs =
		measured?.processed.recordMs === undefined ? undefined : measured.processed.recordMs * calls;
	const processedNightBytes = ((calls + 1) / 2) * (measured?.processed.rowBytes ?? 0);

	const rows: Row[] = [
		{
			store: 'workflow static data (today)',
			'bytes per pair on disk': perPair(measured?.staticData.bytes),
			'time of one save':
				measured?.staticData.saveMs === undefined
					? '—'
					: `${round(measured.staticData.saveMs, 1)} ms, all 60,000 pairs`,
			'lists what it holds (withdraw)': 'yes',
			'crash mid-run': 'the run is lost (saved once, after the run)',
			'manual runs': 'not saved',
			'queue mode, several workers': 'whole value, last save wins',
			'shared by two workflows': 'no',
			'reachable by this node': 'yes, 1.123 and 2.x',
		},
		{
			store: 'processed data (checkProcessedAndRecord …)',
			'bytes per pair on disk': perPair(measured?.processed.bytes),
			'time of one save':
				measured?.processed.recordMs === undefined
					? '—'
					: `${round(measured.processed.recordMs, 1)} ms per record call`,
			'lists what it holds (withdraw)': 'no: md5 hashes only',
			'crash mid-run': `kept up to the last call (${RECORD_BATCH} writes a call: ${calls} calls, ${round(processedNightBytes / 1e9, 2)} GB rewritten, ${processedNightMs === undefined ? '—' : `${round(processedNightMs / 1000, 0)} s`} a first night)`,
			'manual runs': 'saved (a saved workflow)',
			'queue mode, several workers': 'one row read-modify-written, no lock: last write wins',
			'shared by two workflows': 'no (per workflow or node)',
			'reachable by this node': 'yes, 1.123 and 2.x',
		},
		{
			store: 'data table (one row per pair)',
			'bytes per pair on disk': perPair(measured?.dataTable.bytes),
			'time of one save':
				measured?.dataTable.updateMs === undefined
					? '—'
					: `${round(measured.dataTable.updateMs, 1)} ms per row updated (no index)`,
			'lists what it holds (withdraw)': 'yes',
			'crash mid-run': 'kept up to the last row written',
			'manual runs': 'saved',
			'queue mode, several workers': 'row by row',
			'shared by two workflows': 'yes (per project)',
			'reachable by this node': "no: n8n's proxy serves only its Data table and Evaluation nodes",
		},
	];
	const staticPerPair = (measured?.staticData.bytes ?? jsonBytes) / pairs;
	return {
		title: 'Memory stores for a 60,000-pair roster: bytes per pair and what survives',
		method: `One roster memory of ${pairs.toLocaleString('en-US')} pairs (${LEARNERS.toLocaleString('en-US')} learners × ${COURSES.length} courses, a dates fingerprint each) stored three ways in a SQLite file, the tables and value shapes as n8n ${N8N_VERSION} and 1.123.81 create them: the workflow's static data (workflow_entity.staticData, the node's grouped memory as JSON), processed data (processed_data: one row per workflow and node, {mode: 'entries', data: [md5 base64 of each item]}: the item is the pair with its fingerprint), and a data table (data_table_user_<id>: id, createdAt, updatedAt and three text columns). Bytes are the file's growth after VACUUM, per pair. Save times are medians of 5 on this machine: static data is written whole once per production run; a processed-data record call reads, parses, extends and rewrites the whole row (measured at 60,000 entries; a first night that records every ${RECORD_BATCH} confirmed writes makes ${calls} such calls); a data table updates one row per pair. The columns on crashes, manual runs, queue mode, sharing and reach are read from n8n's code (execution-lifecycle-hooks.js, deduplication-helper.js, data-table-proxy.service.js), the same in both versions.`,
		rows,
		checks: [
			check(
				'static data, bytes per pair (JSON)',
				'≤ 24 bytes',
				`${round(jsonBytes / pairs, 1)} bytes`,
				jsonBytes / pairs <= 24,
			),
			check(
				'static data, bytes per pair on disk',
				'≤ 24 bytes',
				`${round(staticPerPair, 1)} bytes`,
				staticPerPair <= 24,
			),
		],
		details: { pairs, jsonBytes, measured, recordBatch: RECORD_BATCH },
		notes,
	};
}
