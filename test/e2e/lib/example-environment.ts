/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { parseCsv } from '../../../harness/csv';
import { json, startLoopback, type Loopback } from '../../../harness/loopback';
import { startSandbox, type Sandbox } from '../../../sandbox/server';
import { examplesDir, withParameters } from './examples';
import { startLrs, type RunningLrs } from '../../../harness/lrs';
import { N8nSandbox } from '../../../harness/n8n';
import { builtPackageDir } from '../../../harness/paths';
import type { WorkflowJson } from '../../../harness/workflowJson';

/*
 * What the example workflows of examples/ run against, for the suites that
 * run them (examples.e2e.test.ts through the CLI, server.e2e.test.ts in
 * `n8n start`): the LMS sandbox, a real record store, a stand-in for the
 * chat, a folder n8n may read catalog.csv from, and an N8nSandbox with the
 * built package and the two credentials the examples refer to.
 */

/** The credentials the examples refer to, by id and name. */
export const LMS_CREDENTIAL = { id: 'lms-sandbox', name: 'LMS sandbox' };
export const LRS_CREDENTIAL = { id: 'lrs-local', name: 'Local LRS' };

/** Where the chat stand-in takes the examples' messages (the chat's incoming webhook). */
export const CHAT_HOOK_PATH = '/hooks/learning-wins';

/** The rows of examples/catalog.csv, as the catalog sync reads them. */
export const exampleCatalogRows = (): Array<Record<string, string>> =>
	parseCsv(fs.readFileSync(path.join(examplesDir, 'catalog.csv'), 'utf8'));

export interface ExampleEnvironment {
	lms: Sandbox;
	lrs: RunningLrs;
	/** Records every request, answers 200. */
	chat: Loopback;
	/** Holds catalog.csv; the only folder n8n may read files from. */
	filesDir: string;
	/** With the built package and both credentials imported. */
	n8n: N8nSandbox;
	/** The LMS client's secret (in the LMS credential). */
	clientSecret: string;
	/** The record store's token (in the LRS credential). */
	lrsToken: string;
	/** The LRS credential's data, for a trigger polled outside n8n. */
	lrsCredentialData: { endpoint: string; authentication: 'token'; token: string };
	/** catalog-sync.json (or a workflow built from it) reading the copy of catalog.csv in `filesDir`. */
	withCatalogPath(catalogSync: WorkflowJson): WorkflowJson;
	/** roster-sync.json reading the copy of roster.csv in `filesDir`. */
	withRosterPath(rosterSync: WorkflowJson): WorkflowJson;
	/** completion-chain-trigger.json (or a workflow built from it) posting to the chat stand-in. */
	withChatUrl(chatWorkflow: WorkflowJson): WorkflowJson;
	/** Removes the n8n folder and the files folder, stops the servers. */
	close(): Promise<void>;
}

/**
 * Starts the sandbox (transactions applied after 200 ms), the record store
 * (accepting only the token) and the chat stand-in, and creates the n8n with
 * the credentials. The secrets start with `secretPrefix` and end at random.
 */
export async function startExampleEnvironment(secretPrefix: string): Promise<ExampleEnvironment> {
	const suffix = randomBytes(6).toString('hex');
	const clientSecret = `${secretPrefix}-secret-${suffix}`;
	const lrsToken = `${secretPrefix}-lrs-token-${suffix}`;

	const [lms, lrs, chat] = await Promise.all([
		startSandbox({ clientSecret, transactionDelayMs: 200 }),
		startLrs({ requiredAuthorization: lrsToken }),
		startLoopback((_, response) => json(response, 200, { ok: true })),
	]);
	// n8n 2.x reads files only inside the folders N8N_RESTRICT_FILE_ACCESS_TO names.
	const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-e2e-files-'));
	let n8n: N8nSandbox | undefined;
	const close = async () => {
		n8n?.dispose();
		fs.rmSync(filesDir, { recursive: true, force: true });
		await Promise.all([lms.close(), lrs.stop(), chat.close()]);
	};
	const lrsCredentialData = {
		endpoint: lrs.endpoint,
		authentication: 'token' as const,
		token: lrsToken,
	};
	try {
		for (const file of ['catalog.csv', 'roster.csv'])
			fs.copyFileSync(path.join(examplesDir, file), path.join(filesDir, file));
		n8n = await N8nSandbox.create({
			customExtensions: [builtPackageDir],
			env: { N8N_RESTRICT_FILE_ACCESS_TO: filesDir },
		});
		await n8n.importCredentials([
			{
				...LMS_CREDENTIAL,
				type: 'learningPlatformOAuth2Api',
				data: { baseUrl: lms.url, clientId: lms.clientId, clientSecret, requestsPerMinute: 300 },
			},
			{ ...LRS_CREDENTIAL, type: 'xApiLrsApi', data: lrsCredentialData },
		]);
	} catch (error) {
		await close();
		throw error;
	}

	return {
		lms,
		lrs,
		chat,
		filesDir,
		n8n,
		clientSecret,
		lrsToken,
		lrsCredentialData,
		withCatalogPath: (catalogSync) =>
			withParameters(catalogSync, 'Config', (parameters) => {
				const catalogPath = parameters.assignments.assignments.find(
					(field: { name: string }) => field.name === 'catalogPath',
				);
				catalogPath.value = path.join(filesDir, 'catalog.csv');
			}),
		withRosterPath: (rosterSync) =>
			withParameters(rosterSync, 'Config', (parameters) => {
				const rosterPath = parameters.assignments.assignments.find(
					(field: { name: string }) => field.name === 'rosterPath',
				);
				rosterPath.value = path.join(filesDir, 'roster.csv');
			}),
		withChatUrl: (chatWorkflow) =>
			withParameters(chatWorkflow, 'Post to team chat', (parameters) => {
				parameters.url = `${chat.url}${CHAT_HOOK_PATH}`;
			}),
		close,
	};
}
