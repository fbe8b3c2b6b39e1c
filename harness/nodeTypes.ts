/* eslint-disable -- harness code, not part of the n8n package: the community-node rules do not apply */
import type { ICredentialType, INodeType, INodeTypes, IVersionedNodeType } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';
import path from 'node:path';

import { builtPackageDir, repoRoot } from './paths';
import { PACKAGE_NAME } from './workflowJson';

/** The package's own types, loaded from source or from the build (`dist`). */
export type PackageSource = 'source' | 'dist';

const PACKAGE_NODES: Record<string, string> = {
	learningPlatform: 'nodes/LearningPlatform/LearningPlatform.node',
	xApi: 'nodes/XApi/XApi.node',
	xApiTrigger: 'nodes/XApiTrigger/XApiTrigger.node',
};

const PACKAGE_CREDENTIALS: Record<string, string> = {
	learningPlatformOAuth2Api: 'credentials/LearningPlatformOAuth2Api.credentials',
	xApiLrsApi: 'credentials/XApiLrsApi.credentials',
};

/** n8n's own nodes that the examples, tests and benchmarks use. */
const BASE_NODES: Record<string, string> = {
	manualTrigger: 'ManualTrigger/ManualTrigger.node',
	scheduleTrigger: 'Schedule/ScheduleTrigger.node',
	webhook: 'Webhook/Webhook.node',
	respondToWebhook: 'RespondToWebhook/RespondToWebhook.node',
	set: 'Set/Set.node',
	noOp: 'NoOp/NoOp.node',
	if: 'If/If.node',
	filter: 'Filter/Filter.node',
	merge: 'Merge/Merge.node',
	splitOut: 'Transform/SplitOut/SplitOut.node',
	aggregate: 'Transform/Aggregate/Aggregate.node',
	removeDuplicates: 'Transform/RemoveDuplicates/RemoveDuplicates.node',
	compareDatasets: 'CompareDatasets/CompareDatasets.node',
	httpRequest: 'HttpRequest/HttpRequest.node',
	readWriteFile: 'Files/ReadWriteFile/ReadWriteFile.node',
	extractFromFile: 'Files/ExtractFromFile/ExtractFromFile.node',
	dateTime: 'DateTime/DateTime.node',
	stopAndError: 'StopAndError/StopAndError.node',
	stickyNote: 'StickyNote/StickyNote.node',
	wait: 'Wait/Wait.node',
};

function loadClass<T>(file: string): T {
	const exported = require(file) as Record<string, new () => T>;
	const Class = Object.values(exported).find((value) => typeof value === 'function');
	if (!Class) throw new Error(`${file} exports no class`);
	return new Class();
}

function packageFile(relative: string, source: PackageSource): string {
	return source === 'dist'
		? path.join(builtPackageDir, `${relative}.js`)
		: path.join(repoRoot, relative);
}

export class HarnessNodeTypes implements INodeTypes {
	private readonly cache = new Map<string, INodeType | IVersionedNodeType>();

	constructor(private readonly source: PackageSource = 'source') {}

	private load(type: string): INodeType | IVersionedNodeType {
		const cached = this.cache.get(type);
		if (cached) return cached;
		const [pkg, name] = type.split('.');
		let file: string | undefined;
		if ((pkg === PACKAGE_NAME || pkg === 'CUSTOM') && PACKAGE_NODES[name])
			file = packageFile(PACKAGE_NODES[name], this.source);
		if (pkg === 'n8n-nodes-base' && BASE_NODES[name])
			file = require.resolve(`n8n-nodes-base/dist/nodes/${BASE_NODES[name]}.js`);
		if (!file) throw new Error(`Unrecognized node type: ${type}`);
		const nodeType = loadClass<INodeType | IVersionedNodeType>(file);
		this.cache.set(type, nodeType);
		return nodeType;
	}

	getByName(type: string): INodeType | IVersionedNodeType {
		return this.load(type);
	}

	getByNameAndVersion(type: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.load(type), version);
	}

	getKnownTypes() {
		return {};
	}
}

export class HarnessCredentialTypes {
	private readonly cache = new Map<string, ICredentialType>();

	constructor(private readonly source: PackageSource = 'source') {}

	getByName(name: string): ICredentialType {
		const cached = this.cache.get(name);
		if (cached) return cached;
		const file = PACKAGE_CREDENTIALS[name];
		if (!file) throw new Error(`Unknown credential type: ${name}`);
		const type = loadClass<ICredentialType>(packageFile(file, this.source));
		this.cache.set(name, type);
		return type;
	}
}
