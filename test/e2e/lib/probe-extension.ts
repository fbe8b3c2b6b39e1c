/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const PROBE_NODE_NAME = 'extensionProbe';

/**
 * Writes a minimal custom node into `folder`, independent of this package's
 * sources, to prove the custom-extension loader path on its own. It adds to
 * each item where its `n8n-workflow` came from: a package must get the host
 * n8n's copy.
 */
export function writeProbeExtension(folder: string): string {
	fs.mkdirSync(path.join(folder, 'nodes', 'ExtensionProbe'), { recursive: true });
	fs.writeFileSync(
		path.join(folder, 'nodes', 'ExtensionProbe', 'ExtensionProbe.node.js'),
		`'use strict';
const { NodeConnectionTypes } = require('n8n-workflow');
class ExtensionProbe {
	constructor() {
		this.description = {
			displayName: 'Extension Probe',
			name: '${PROBE_NODE_NAME}',
			group: ['transform'],
			version: 1,
			description: 'Marks items it saw',
			defaults: { name: 'Extension Probe' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		};
	}
	async execute() {
		const workflowModule = require.resolve('n8n-workflow');
		return [this.getInputData().map((item) => ({ json: { ...item.json, probed: true, workflowModule } }))];
	}
}
module.exports = { ExtensionProbe };
`,
	);
	return folder;
}
