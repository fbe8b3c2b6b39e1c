/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import { randomBytes, randomUUID } from 'node:crypto';
import * as path from 'node:path';

import { startSandbox, type Sandbox } from '../../sandbox/server';
import { SIMPLIFIED_COURSE_FIELDS } from '../../nodes/LearningPlatform/actions/course/getMany.operation';
import {
	acceptedWrites,
	bearerTokens,
	lastSeq,
	requestsSince,
	seedCourses,
	settleTransactions,
	USER_COURSES_PATH,
} from '../../harness/lmsSandbox';
import { N8nSandbox } from '../../harness/n8n';
import { startN8nServer, waitUntil, type N8nServer } from '../../harness/n8nServer';
import { builtPackageDir, N8N_MAJOR, n8nInstallDir } from '../../harness/paths';
import { leakedSecrets } from './lib/secrets';
import type { WorkflowJson } from '../../harness/workflowJson';

/*
 * The package's nodes as tools of n8n's MCP Server Trigger, in a running n8n (`n8n start`),
 * called the way an AI client reaches n8n: with an MCP client over Streamable HTTP (n8n's
 * own copy of @modelcontextprotocol/sdk). The LMS sandbox stands in for the platform.
 *
 * n8n 2.x only: the MCP client and the trigger version used here are 2.x's.
 */
const describeOn2 = N8N_MAJOR === 2 ? describe : describe.skip;

const sdk = path.join(n8nInstallDir, 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'cjs');

interface McpTool {
	name: string;
	description?: string;
	inputSchema: {
		properties?: Record<string, { type?: string; description?: string }>;
		required?: string[];
	};
}
interface McpCallResult {
	content?: Array<{ type: string; text?: string }>;
	isError?: boolean;
}
interface McpClient {
	connect(transport: unknown): Promise<void>;
	listTools(): Promise<{ tools: McpTool[] }>;
	callTool(request: { name: string; arguments: Record<string, unknown> }): Promise<McpCallResult>;
	close(): Promise<void>;
}

const suffix = randomBytes(6).toString('hex');
const clientSecret = `e2e-mcp-secret-${suffix}`;
const MCP_PATH = `lp-tools-${suffix}`;
const COURSE = 'mcp-onboarding-101';

const credential = {
	id: 'e2eMcpLms0000001',
	name: 'LMS for tools',
	type: 'learningPlatformOAuth2Api',
	data: { clientSecret, requestsPerMinute: 600 } as Record<string, unknown>,
};
const credentialRef = { learningPlatformOAuth2Api: { id: credential.id, name: credential.name } };

const fromAi = (key: string, description: string, type = 'string') =>
	`={{ $fromAI('${key}', '${description}', '${type}') }}`;

const TRIGGER = 'MCP Server Trigger';

/** An MCP Server Trigger whose tools are the package's LMS node: Assign, and Get Many courses. */
const workflow: WorkflowJson = {
	name: 'Learning Platform tools over MCP',
	nodes: [
		{
			name: TRIGGER,
			type: '@n8n/n8n-nodes-langchain.mcpTrigger',
			typeVersion: 2,
			position: [0, 0],
			webhookId: randomUUID(),
			parameters: { path: MCP_PATH, authentication: 'none' },
		},
		{
			name: 'assign_course',
			type: 'CUSTOM.learningPlatformTool',
			typeVersion: 1.1,
			position: [0, 200],
			credentials: credentialRef,
			parameters: {
				resource: 'assignment',
				operation: 'assign',
				email: fromAi('email', 'The learner work e-mail address'),
				externalId: {
					__rl: true,
					mode: 'id',
					value: fromAi('courseExternalId', 'The external ID of the course'),
				},
				options: { waitForCompletion: true },
			},
		},
		{
			name: 'list_courses',
			type: 'CUSTOM.learningPlatformTool',
			typeVersion: 1.1,
			position: [200, 200],
			credentials: credentialRef,
			parameters: {
				resource: 'course',
				operation: 'getMany',
				returnAll: false,
				limit: fromAi('limit', 'How many courses to list at most', 'number'),
			},
		},
	],
	connections: {
		assign_course: { ai_tool: [[{ node: TRIGGER, type: 'ai_tool', index: 0 }]] },
		list_courses: { ai_tool: [[{ node: TRIGGER, type: 'ai_tool', index: 0 }]] },
	},
	settings: { executionOrder: 'v1' },
};

let lms: Sandbox;
let n8n: N8nSandbox;
let server: N8nServer;
let client: McpClient;
/** Everything the MCP client was answered, to look for secrets in. */
const answers: string[] = [];

function textOf(result: McpCallResult): string {
	const text = (result.content ?? []).map((part) => part.text ?? '').join('\n');
	answers.push(JSON.stringify(result));
	return text;
}

/** Calls the Assign tool for the course; `from` is where the sandbox's log stood before. */
async function assign(email: string) {
	const from = lastSeq(lms);
	const result = await client.callTool({
		name: 'assign_course',
		arguments: { email, courseExternalId: COURSE },
	});
	return { from, result, text: textOf(result) };
}

async function connect(): Promise<McpClient> {
	const { Client } = require(path.join(sdk, 'client', 'index.js'));
	const { StreamableHTTPClientTransport } = require(path.join(sdk, 'client', 'streamableHttp.js'));
	const candidate: McpClient = new Client({ name: 'lp-e2e', version: '1.0.0' });
	await candidate.connect(
		new StreamableHTTPClientTransport(new URL(`${server.origin}/mcp/${MCP_PATH}`)),
	);
	return candidate;
}

describeOn2('the nodes as MCP tools (n8n MCP Server Trigger)', () => {
	beforeAll(async () => {
		lms = await startSandbox({ clientSecret, transactionDelayMs: 200, rateLimitPerMinute: 600 });
		await seedCourses(lms, [
			{
				external_id: COURSE,
				name: 'Onboarding 101',
				url: 'https://learn.example.com/c/101',
				prices_data: [],
			},
			{
				external_id: 'mcp-privacy',
				name: 'Data Privacy',
				url: 'https://learn.example.com/c/p',
				prices_data: [],
			},
		]);
		n8n = await N8nSandbox.create({ customExtensions: [builtPackageDir] });
		await n8n.importCredentials([
			{ ...credential, data: { baseUrl: lms.url, clientId: lms.clientId, ...credential.data } },
		]);
		const [id] = await n8n.importWorkflows([workflow]);
		await n8n.activate(id);
		server = await startN8nServer(n8n);
		client = await waitUntil(
			'the MCP server did not answer',
			120_000,
			async () => {
				try {
					return await connect();
				} catch {
					return undefined;
				}
			},
			1000,
		);
	});

	afterAll(async () => {
		await client?.close().catch(() => undefined);
		await server?.stop();
		n8n?.dispose();
		await lms?.close();
	});

	it('lists the tools with what they need and what they answer', async () => {
		const { tools } = await client.listTools();
		const byName = new Map(tools.map((tool) => [tool.name, tool]));

		const assign = byName.get('assign_course');
		expect(assign?.description).toMatch(
			/^Assigns a course to a learner by work e-mail and course external ID.*Answers whether the platform confirmed it/,
		);
		expect(Object.keys(assign?.inputSchema.properties ?? {}).sort()).toEqual([
			'courseExternalId',
			'email',
		]);
		expect(assign?.inputSchema.properties?.email?.description).toBe(
			'The learner work e-mail address',
		);

		const list = byName.get('list_courses');
		expect(list?.description).toMatch(/^Lists courses of the catalog.*10 fields each/);
		expect(list?.inputSchema.properties?.limit?.type).toBe('number');
	});

	it('assigns a course once and answers that the platform confirmed it', async () => {
		const { from, result, text } = await assign('ada@example.com');

		expect(result.isError ?? false).toBe(false);
		expect(text).toContain('"status":"success"');
		expect(text).toContain('"confirmation":"confirmed"');
		await settleTransactions(lms);
		expect(acceptedWrites(requestsSince(lms, from), USER_COURSES_PATH)).toHaveLength(1);
		expect(Object.values(lms.state().assignments)).toEqual([
			expect.objectContaining({ email_id: 'ada@example.com', external_id: COURSE, writes: 1 }),
		]);
	});

	it('answers a bad argument with an error naming the field, and sends nothing', async () => {
		const { from, text } = await assign('not-an-address');

		expect(text).toMatch(/Email: must be an email address/);
		expect(requestsSince(lms, from)).toEqual([]);
	});

	it('lists courses compactly by default', async () => {
		const result = await client.callTool({ name: 'list_courses', arguments: { limit: 5 } });

		const text = textOf(result);
		expect(result.isError ?? false).toBe(false);
		expect(text).toContain(COURSE);
		const courses = JSON.parse(text) as Array<Record<string, unknown>>;
		const listed = Array.isArray(courses) ? courses : [courses];
		expect(listed.length).toBeGreaterThanOrEqual(2);
		for (const course of listed) {
			expect(
				Object.keys(course).every((key) =>
					(SIMPLIFIED_COURSE_FIELDS as readonly string[]).includes(key),
				),
			).toBe(true);
		}
	});

	it('shows no secret and no token to the client or in the server output', async () => {
		const tokens = bearerTokens(requestsSince(lms, 0));
		expect(tokens.length).toBeGreaterThan(0);
		const everything = [...answers, server.output()].join('\n');
		expect(leakedSecrets(everything, [clientSecret, ...tokens])).toEqual([]);
	});
});
