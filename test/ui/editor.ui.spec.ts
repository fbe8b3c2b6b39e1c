/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import {
	chromium,
	selectors,
	type Browser,
	type BrowserContext,
	type Locator,
	type Page,
} from 'playwright-core';

import { startSandbox, type Sandbox } from '../../sandbox/server';
import { COURSES_PATH, seedCourses } from '../../harness/lmsSandbox';
import { toCustomNodeTypes, type WorkflowJson } from '../../harness/workflowJson';
import { builtPackageDir, N8N_VERSION, repoRoot } from '../../harness/paths';
import { delay } from '../../harness/processes';
import { BrowserErrors, describeErrors } from './lib/browser-errors';
import {
	actionNames,
	defaultValues,
	loadCredential,
	loadNode,
	offeredCollectionFields,
	optionValue,
	shownProperties,
} from './lib/description';
import { Editor } from './lib/editor';
import {
	formName,
	LEARNING_PLATFORM_FORMS,
	LMS_CREDENTIAL_FIELDS,
	XAPI_CREDENTIAL_FIELDS_BASIC,
	XAPI_CREDENTIAL_FIELDS_TOKEN,
	XAPI_FORMS,
	XAPI_TRIGGER_FORMS,
	type FormSpec,
} from './lib/forms';
import { startN8n, type RunningN8n } from './lib/n8n-server';

/*
 * The editor as a no-code builder meets it: a real n8n 2.x server (`n8n
 * start`) with the built package, Debian's Chromium driven by playwright-core,
 * and the LMS sandbox behind the course picker. The builder adds each node
 * from the node creator, opens every resource and operation form, both
 * credential dialogs, and uses the course picker. Any console error or
 * uncaught exception in the page fails the run, except the n8n noise listed
 * in lib/browser-errors.ts. The README's screenshots are written to docs/.
 *
 * Run with `npm run test:ui` (installs Chromium and builds the package first).
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DOCS_DIR = path.join(repoRoot, 'docs');
const FAILURE_DIR = path.join(os.tmpdir(), 'lp-ui-failures');

const COURSES = [
	{ external_id: 'safety-101', name: 'Safety basics' },
	{ external_id: 'onboarding-101', name: 'Onboarding for new hires' },
	{ external_id: 'privacy-201', name: 'Data privacy essentials' },
	{ external_id: 'lead-301', name: 'Leading a team' },
];
const pickerEntry = (course: { external_id: string; name: string }) =>
	`${course.name} (${course.external_id})`;

const learningPlatform = loadNode(
	builtPackageDir,
	'nodes/LearningPlatform/LearningPlatform.node.js',
	'LearningPlatform',
);
const xApi = loadNode(builtPackageDir, 'nodes/XApi/XApi.node.js', 'XApi');
const xApiTrigger = loadNode(
	builtPackageDir,
	'nodes/XApiTrigger/XApiTrigger.node.js',
	'XApiTrigger',
);
const lmsCredential = loadCredential(
	builtPackageDir,
	'credentials/LearningPlatformOAuth2Api.credentials.js',
	'LearningPlatformOAuth2Api',
);
const xApiCredential = loadCredential(
	builtPackageDir,
	'credentials/XApiLrsApi.credentials.js',
	'XApiLrsApi',
);

let lms: Sandbox;
let n8n: RunningN8n;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let editor: Editor;
let errors: BrowserErrors;

/** Forms whose inputs showed `[object Object]`, from every walk. */
const objectObjectSightings: string[] = [];
let lmsCredentialTest: Awaited<ReturnType<Editor['saveCredential']>> | undefined;

beforeAll(async () => {
	if (!fs.existsSync(CHROMIUM))
		throw new Error(`no Chromium at ${CHROMIUM}: run scripts/install-chromium.sh`);
	lms = await startSandbox({ transactionDelayMs: 20 });
	await seedCourses(
		lms,
		COURSES.map((course) => ({
			...course,
			url: `https://learn.example.com/courses/${course.external_id}`,
			prices_data: [],
		})),
	);
	n8n = await startN8n({ packageDir: builtPackageDir });

	selectors.setTestIdAttribute('data-test-id');
	// --no-sandbox: Chromium's own sandbox does not start as root (as these machines run).
	browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
	context = await browser.newContext({
		baseURL: n8n.url,
		viewport: { width: 1440, height: 1000 },
		locale: 'en-US',
		timezoneId: 'UTC',
	});
	page = await context.newPage();
	page.setDefaultTimeout(20_000);
	errors = new BrowserErrors(page);
	editor = new Editor(page);

	// The browser context shares its cookies with its request client: this signs the browser in.
	const login = await context.request.post('/rest/login', {
		data: { emailOrLdapLoginId: n8n.owner.email, password: n8n.owner.password },
	});
	if (login.status() !== 200)
		throw new Error(`sign-in answered ${login.status()}: ${await login.text()}`);
}, 300_000);

afterAll(async () => {
	await browser?.close();
	if (n8n) {
		// What the server printed, for a failure's post-mortem (outside the repository).
		const log = path.join(os.tmpdir(), 'lp-ui-n8n.log');
		fs.writeFileSync(log, n8n.output());
		process.stdout.write(`n8n's output: ${log}\n`);
	}
	await n8n?.stop();
	await lms?.close();
});

/** A test whose failure leaves a picture of the page (outside the repository) and says where. */
function step(name: string, body: () => Promise<void>, timeoutMs = 180_000): void {
	it(
		name,
		async () => {
			try {
				await body();
			} catch (error) {
				if (page) {
					fs.mkdirSync(FAILURE_DIR, { recursive: true });
					const file = path.join(FAILURE_DIR, `${name.replace(/[^\w-]+/g, '_').slice(0, 100)}.png`);
					await page.screenshot({ path: file }).catch(() => undefined);
					process.stdout.write(`page at the failure: ${file}\n`);
				}
				throw error;
			}
		},
		timeoutMs,
	);
}

describe(`the editor of n8n ${N8N_VERSION} in Chromium`, () => {
	step('opens a blank workflow for the signed-in owner', async () => {
		errors.step('opening a blank workflow');
		await editor.openNewWorkflow();
		expect(page.url()).toMatch(/\/workflow\/[\w-]+/);
	});

	step(
		'Learning Platform: the node creator lists every action, and every resource and operation form shows its controls',
		async () => {
			errors.step('Learning Platform: node creator');
			await editor.openNodeCreator(true);
			await editor.openNodeInCreator('Learning Platform', 'Learning Platform');
			const listed = await editor.creatorItemTexts();
			expect(listed).toEqual(expect.arrayContaining(actionNames(learningPlatform)));

			errors.step('Learning Platform: Course → Create or Update');
			await editor.pickCreatorItem('Create or update a course');
			const [first, ...others] = LEARNING_PLATFORM_FORMS;
			const problems = await checkForm(learningPlatform, first);
			expect(problems).toEqual([]);
			await screenshotCourseForm();

			const walk = await walkForms('Learning Platform', learningPlatform, others);
			expect(walk).toEqual([]);
		},
	);

	step(
		'Learning Platform credential dialog: every field; a credential for the sandbox is saved',
		async () => {
			errors.step('Learning Platform credential dialog');
			await editor.openNewCredentialFromNode();
			await expectCredentialFields(lmsCredential.properties, {}, LMS_CREDENTIAL_FIELDS);
			await editor.fillCredentialField('baseUrl', lms.url);
			await editor.fillCredentialField('clientId', lms.clientId);
			await editor.fillCredentialField('clientSecret', lms.clientSecret);
			await writeScreenshot('credential-lms.png', editor.credentialDialog());

			errors.step('Learning Platform credential dialog: Save (n8n runs the credential Test)');
			lmsCredentialTest = await editor.saveCredential();
			await editor.closeCredentialModal();
			const saved = await context.request.get('/rest/credentials');
			const credentials = ((await saved.json()) as { data: Array<{ type: string }> }).data;
			expect(credentials.map((credential) => credential.type)).toContain(
				'learningPlatformOAuth2Api',
			);
			// The node now uses it.
			await editor.ndv.getByTestId('node-credentials-select').waitFor();
		},
	);

	step("the credential's Test, run by Save, passes against the sandbox", async () => {
		expect(lmsCredentialTest).toEqual({ outcome: 'success' });
	});

	step(
		"course picker: Course → Archive lists the sandbox's courses, searching by name narrows the list",
		async () => {
			errors.step('course picker: Course → Archive');
			await editor.choose('resource', 'Course');
			await editor.choose('operation', 'Archive');
			// n8n labels the modes named `list` and `id` itself ("From list", "By ID"), whatever the node's display names.
			expect(await editor.locatorModes('externalId')).toEqual(['From list', 'By ID']);

			errors.step('course picker: the list opened');
			// Coming from Create or Update, the picker keeps that operation's mode ("By ID").
			await editor.chooseLocatorMode('externalId', 'From list');
			const listingsBefore = courseListings();
			await editor.openLocatorList('externalId');
			await waitForEntries(COURSES.map(pickerEntry));
			expect(courseListings()).toBeGreaterThan(listingsBefore);
			await writeScreenshot('course-picker.png', editor.ndv, { blur: false });

			errors.step('course picker: searching by name');
			const listingsBeforeSearch = courseListings();
			await editor.searchLocatorList('privacy');
			await waitForEntries([pickerEntry(COURSES[2])]);
			await editor.searchLocatorList('SAFETY');
			await waitForEntries([pickerEntry(COURSES[0])]);
			// The search went to the node's list search, which read the sandbox's catalog again.
			expect(courseListings()).toBeGreaterThan(listingsBeforeSearch);

			errors.step('course picker: a course picked');
			await editor
				.locatorItems()
				.filter({ hasText: pickerEntry(COURSES[0]) })
				.click();
			const input = editor.locator('externalId').getByTestId('rlc-input');
			await expect(input.inputValue()).resolves.toContain(COURSES[0].name);
			// "By ID" holds what the node sends: the picked course's external ID.
			await editor.chooseLocatorMode('externalId', 'By ID');
			await expect(input.inputValue()).resolves.toBe(COURSES[0].external_id);
			await expect(input.getAttribute('placeholder')).resolves.toBe('e.g. onboarding-101');

			errors.step('course picker: Assignment → Assign');
			await editor.choose('resource', 'Assignment');
			await editor.choose('operation', 'Assign');
			await editor.chooseLocatorMode('externalId', 'From list');
			await editor.openLocatorList('externalId');
			await waitForEntries(COURSES.map(pickerEntry));
			await page.keyboard.press('Escape');
		},
	);

	// Fresh nodes, as the node creator adds them: a sync reached by switching from another
	// operation keeps that operation's (empty) Options, as n8n keeps a collection's value.
	let syncAssignmentsNode = '';
	step(
		'Sync Catalog and Sync Assignments, added fresh: their forms show the share in force and what 0 means, for the README',
		async () => {
			for (const [resource, action, file, typed] of [
				[
					'course',
					'Sync the course catalog',
					'sync-catalog-form.png',
					[
						['name', 'Safety basics'],
						['url', 'https://learn.example.com/courses/safety-101'],
					],
				],
				[
					'assignment',
					'Sync assignments',
					'sync-assignments-form.png',
					[['email', 'ada@example.com']],
				],
			] as const) {
				errors.step(`sync forms: ${action}, from the node creator`);
				const name = await addLearningPlatformNode(action);
				const share = syncOption(
					resource,
					resource === 'course' ? 'maxArchiveShare' : 'maxWithdrawShare',
				);
				await expect(
					editor.parameterInput(share.name).locator('input').first().inputValue(),
				).resolves.toBe(String(share.default));
				await expect(editor.parameterHint(share.name)).resolves.toBe(share.hint);
				await expect(editor.showsText(dryRunNotice(resource))).resolves.toBe(false);
				await screenshotFilled(file, typed);
				if (resource === 'assignment') syncAssignmentsNode = name;
			}
		},
	);

	step(
		'Sync Assignments with Dry Run on: the form and the canvas say so before it runs; off again, neither does',
		async () => {
			errors.step('dry run: Options → Dry Run added and switched on');
			const notice = dryRunNotice('assignment');
			await editor.addCollectionField('options', syncOption('assignment', 'dryRun').displayName);
			await editor.toggle('dryRun');
			await waitUntil('the dry-run notice', () => editor.showsText(notice));
			await writeScreenshot('sync-dry-run-form.png', editor.ndv);

			errors.step('dry run: the canvas');
			await editor.closeNdv();
			const node = editor.canvasNode(syncAssignmentsNode);
			await expect(editor.canvasSubtitle(node)).resolves.toBe(dryRunAction('assignment', 'sync'));

			errors.step('dry run: switched off again');
			await editor.openNode(syncAssignmentsNode);
			await editor.toggle('dryRun');
			await waitUntil('the notice to go', async () => !(await editor.showsText(notice)));
			await editor.closeNdv();
			await expect(editor.canvasSubtitle(node)).resolves.toBe(actionOf('assignment', 'sync'));
			await editor.openNode(syncAssignmentsNode);
		},
	);

	step(
		'xAPI: the node creator lists its actions and trigger, and every operation form shows its controls',
		async () => {
			errors.step('xAPI: node creator');
			await editor.closeNdv();
			await editor.openNodeCreator(false);
			await editor.openNodeInCreator('xAPI', 'xAPI');
			expect(await editor.creatorItemTexts()).toEqual(expect.arrayContaining(actionNames(xApi)));
			expect(await editor.creatorCategories()).toEqual(
				expect.arrayContaining([`Actions (${actionNames(xApi).length})`, 'Triggers (1)']),
			);

			errors.step('xAPI: Statement → Send');
			await editor.pickCreatorItem('Send a statement');
			const walk = await walkForms('xAPI', xApi, XAPI_FORMS);
			expect(walk).toEqual([]);
		},
	);

	step('xAPI credential dialog: every field, for a token and for Basic auth', async () => {
		errors.step('xAPI credential dialog');
		await editor.openNewCredentialFromNode();
		await expectCredentialFields(
			xApiCredential.properties,
			{ authentication: 'token' },
			XAPI_CREDENTIAL_FIELDS_TOKEN,
		);
		await editor.chooseCredentialOption('authentication', 'Basic Auth');
		await expectCredentialFields(
			xApiCredential.properties,
			{ authentication: 'basic' },
			XAPI_CREDENTIAL_FIELDS_BASIC,
		);
		await editor.fillCredentialField('endpoint', 'https://lrs.example.com/data/xAPI');
		await editor.fillCredentialField('username', 'lrs-key');
		await editor.fillCredentialField('password', 'lrs-secret');
		await writeScreenshot('credential-xapi.png', editor.credentialDialog());
		// Not saved: nothing to test it against here (test/e2e runs the credential against a real LRS).
		await editor.closeCredentialModal();
	});

	step('xAPI Trigger: the node creator adds it, and its form shows its controls', async () => {
		errors.step('xAPI Trigger: node creator');
		await editor.closeNdv();
		await editor.openNodeCreator(false);
		await editor.openNodeInCreator('xAPI', 'xAPI');
		await editor.expandCreatorCategory('Triggers');
		await editor.pickCreatorItem('On new xAPI event');
		errors.step('xAPI Trigger: its form');
		const walk = await walkForms('xAPI Trigger', xApiTrigger, XAPI_TRIGGER_FORMS);
		expect(walk).toEqual([]);
		await editor.closeNdv();
	});

	step(
		'the workflow the editor saved holds the three nodes, the Learning Platform one with its credential',
		async () => {
			errors.step('reading the saved workflow');
			const id = /\/workflow\/([\w-]+)/.exec(page.url())?.[1];
			expect(id).toBeDefined();
			// n8n 2.x saves as the builder goes; reads until the last node added is in.
			const deadline = Date.now() + 20_000;
			let nodes: SavedNode[] = [];
			while (Date.now() < deadline) {
				const answer = await context.request.get(`/rest/workflows/${id}`);
				nodes = ((await answer.json()) as { data: { nodes: SavedNode[] } }).data.nodes;
				if (nodes.some((node) => node.type === 'CUSTOM.xApiTrigger')) break;
				await delay(500);
			}
			const types = nodes.map((node) => node.type);
			expect(types).toEqual(
				expect.arrayContaining(['CUSTOM.learningPlatform', 'CUSTOM.xApi', 'CUSTOM.xApiTrigger']),
			);
			const lmsNode = nodes.find((node) => node.type === 'CUSTOM.learningPlatform');
			expect(lmsNode?.credentials?.learningPlatformOAuth2Api?.name).toBe(
				'Learning Platform account',
			);
		},
	);

	step(
		'an imported example (Nightly roster with review): the dry-run node is told apart on the canvas, its course picker shows as on a fresh node, the share in force is on the form',
		async () => {
			errors.step('import: Nightly roster with review');
			// The example names its credential "LMS sandbox": n8n attaches a credential of that name and type.
			const credential = await context.request.post('/rest/credentials', {
				data: {
					name: 'LMS sandbox',
					type: 'learningPlatformOAuth2Api',
					data: { baseUrl: lms.url, clientId: lms.clientId, clientSecret: lms.clientSecret },
				},
			});
			expect(credential.status()).toBe(200);
			await editor.closeNdv();
			await editor.openNewWorkflow();
			await editor.importWorkflowFile(importable('roster-review.json'));
			// Wide enough for the whole workflow to be read at a glance.
			await page.setViewportSize({ width: 2400, height: 760 });
			await editor.zoomToFit();
			await expect(editor.canvasSubtitle(editor.canvasNode('Plan the night'))).resolves.toBe(
				dryRunAction('assignment', 'sync'),
			);
			await expect(editor.canvasSubtitle(editor.canvasNode('Sync assignments'))).resolves.toBe(
				actionOf('assignment', 'sync'),
			);
			await expect(page.getByTestId('node-issues').count()).resolves.toBe(0);
			await writeScreenshot('review-canvas.png', page.getByTestId('canvas-wrapper'));
			await page.setViewportSize({ width: 1440, height: 1000 });
			await delay(500); // the canvas settles into the new size
			await editor.zoomToFit();

			errors.step('import: Plan the night, the dry-run node');
			await editor.openNode('Plan the night');
			await waitUntil('the dry-run notice', () => editor.showsText(dryRunNotice('assignment')));
			// What a fresh node shows: the picker's mode, not an empty "Mode…".
			await expect(editor.locatorMode('externalId')).resolves.toBe('By ID');
			await expect(editor.locator('externalId').innerText()).resolves.toContain(
				'{{ $json.course }}',
			);
			const share = syncOption('assignment', 'maxWithdrawShare');
			await expect(
				editor.parameterInput(share.name).locator('input').first().inputValue(),
			).resolves.toBe('10');
			await expect(editor.parameterHint(share.name)).resolves.toBe(share.hint);
			await writeScreenshot('review-plan-the-night.png', editor.ndv);
			await editor.closeNdv();

			errors.step('import: Sync assignments, the real node');
			await editor.openNode('Sync assignments');
			await expect(editor.locatorMode('externalId')).resolves.toBe('By ID');
			await expect(editor.showsText(dryRunNotice('assignment'))).resolves.toBe(false);
			// An expression in Approved Plan shows its result where a fixed value shows the hint.
			const memoryKey = syncOption('assignment', 'memoryKey');
			await expect(editor.parameterHint(memoryKey.name)).resolves.toBe(memoryKey.hint);
			await editor.parameterInput(memoryKey.name).scrollIntoViewIfNeeded();
			await writeScreenshot('review-sync-options.png', editor.ndv);
			await editor.closeNdv();
		},
	);

	step(
		'no form shows [object Object] in a field, after switching operations back and forth',
		async () => {
			expect(objectObjectSightings).toEqual([]);
		},
	);

	step('the page logged no console error and threw no exception', async () => {
		const leftAlone = errors.leftAlone();
		if (leftAlone.length > 0)
			process.stdout.write(`n8n noise left alone: ${leftAlone.join('; ')}\n`);
		const unexpected = errors.unexpected();
		if (unexpected.length > 0)
			throw new Error(`the page reported errors:\n${describeErrors(unexpected)}`);
	});
});

interface SavedNode {
	type: string;
	credentials?: Record<string, { id: string; name: string }>;
}

// ---- forms ----

/**
 * Visits each form in turn and returns what is wrong with each, by form:
 * missing controls, labels that differ from the description, collection
 * lists that offer other fields than declared.
 */
async function walkForms(
	node: string,
	description: INodeTypeDescription,
	forms: FormSpec[],
): Promise<string[]> {
	const problems: string[] = [];
	for (const form of forms) {
		errors.step(`${node}: ${formName(form)}`);
		if (form.resource) await editor.choose('resource', form.resource);
		if (form.operation) await editor.choose('operation', form.operation);
		for (const [parameter, option] of form.choose ?? []) await editor.choose(parameter, option);
		for (const parameter of form.flip ?? []) await editor.toggle(parameter);
		problems.push(...(await checkForm(description, form)).map((problem) => `${node}: ${problem}`));
	}
	return problems;
}

async function checkForm(description: INodeTypeDescription, form: FormSpec): Promise<string[]> {
	const name = formName(form);
	const problems: string[] = [];
	const shown = await waitForLabels(form.controls);
	const labels = new Set(shown.map((parameter) => parameter.label));
	for (const control of form.controls) {
		if (!labels.has(control))
			problems.push(`${name}: no "${control}" (shown: ${[...labels].join(', ')})`);
	}

	// Everything the built description declares for this form is there, under its display name.
	const values = defaultValues(description.properties);
	if (form.resource)
		values.resource = optionValue(description.properties, 'resource', form.resource, values);
	if (form.operation)
		values.operation = optionValue(description.properties, 'operation', form.operation, values);
	for (const [parameter, option] of form.choose ?? []) {
		values[parameter] = optionValue(description.properties, parameter, option, values);
	}
	for (const parameter of form.flip ?? []) values[parameter] = !values[parameter];
	for (const property of shownProperties(description.properties, values)) {
		if (property.type === 'hidden') continue;
		if (property.type === 'notice') {
			if (!(await editor.showsText(property.displayName))) {
				problems.push(`${name}: the notice "${property.displayName.slice(0, 60)}…" is not shown`);
			}
			continue;
		}
		const label = shown.find((parameter) => parameter.name === property.name)?.label;
		if (label !== property.displayName) {
			problems.push(
				`${name}: parameter ${property.name} should read "${property.displayName}", shows ${label === undefined ? 'nothing' : `"${label}"`}`,
			);
		}
		if (property.type === 'collection') {
			const offered = [...(await editor.collectionOffers(property.name))].sort();
			const declared = offeredCollectionFields(property).sort();
			if (offered.join('|') !== declared.join('|')) {
				problems.push(
					`${name}: "${property.displayName}" offers [${offered.join(', ')}], the node declares [${declared.join(', ')}]`,
				);
			}
		}
	}
	const objectObject = await editor.objectObjectInputs();
	if (objectObject.length > 0) {
		objectObjectSightings.push(
			`${description.displayName}: ${name}${form.note ? ` (${form.note})` : ''}: ${objectObject.join(', ')} shows [object Object]`,
		);
	}
	return problems;
}

/** The form re-renders after a choice: waits (briefly) until the expected labels are there. */
async function waitForLabels(controls: string[]): Promise<Array<{ name: string; label: string }>> {
	const deadline = Date.now() + 5_000;
	for (;;) {
		const shown = await editor.shownParameters();
		const labels = new Set(shown.map((parameter) => parameter.label));
		if (controls.every((control) => labels.has(control)) || Date.now() > deadline) {
			await delay(100);
			return await editor.shownParameters();
		}
		await delay(100);
	}
}

async function expectCredentialFields(
	properties: Array<{ displayName: string; name: string; type: string; displayOptions?: unknown }>,
	values: Record<string, unknown>,
	expected: string[],
): Promise<void> {
	const deadline = Date.now() + 5_000;
	let fields = await editor.credentialFields();
	while (!expected.every((field) => fields.includes(field)) && Date.now() < deadline) {
		await delay(100);
		fields = await editor.credentialFields();
	}
	expect(fields).toEqual(expect.arrayContaining(expected));
	const declared = shownProperties(properties as never, {
		...defaultValues(properties as never),
		...values,
	});
	for (const property of declared) {
		if (property.type === 'hidden') continue;
		if (property.type === 'notice') {
			await expect(editor.credentialShowsText(property.displayName)).resolves.toBe(true);
		} else {
			expect(fields).toContain(property.displayName);
		}
	}
}

// ---- the sync forms ----

/** Adds a Learning Platform node by its action in the node creator; resolves with the node's name. */
async function addLearningPlatformNode(action: string): Promise<string> {
	await editor.closeNdv();
	const names = async () =>
		await page
			.locator('[data-test-id="canvas-node"]')
			.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-node-name') ?? ''));
	const before = await names();
	await editor.openNodeCreator(false);
	await editor.openNodeInCreator('Learning Platform', 'Learning Platform');
	await editor.pickCreatorItem(action);
	const added = (await names()).filter((name) => !before.includes(name));
	if (added.length !== 1) throw new Error(`adding "${action}" added [${added.join(', ')}]`);
	return added[0];
}

function syncOptions(resource: string): INodeProperties[] {
	const options = learningPlatform.properties.find(
		(property) =>
			property.name === 'options' &&
			property.displayOptions?.show?.resource?.includes(resource) &&
			property.displayOptions?.show?.operation?.includes('sync'),
	);
	return (options?.options ?? []) as INodeProperties[];
}

function syncOption(resource: string, name: string): INodeProperties {
	const option = syncOptions(resource).find((candidate) => candidate.name === name);
	if (!option) throw new Error(`no option ${name} on the ${resource} sync`);
	return option;
}

function dryRunNotice(resource: string): string {
	const notice = learningPlatform.properties.find(
		(property) =>
			property.name === 'dryRunNotice' &&
			property.displayOptions?.show?.resource?.includes(resource),
	);
	if (!notice) throw new Error(`no dry-run notice on the ${resource} sync`);
	return notice.displayName;
}

/** The subtitle the built description gives an operation, with Dry Run on or not (its expression's map). */
function subtitleMap(): Record<string, string> {
	const map = /^=\{\{ (\{.*\})\[/.exec(learningPlatform.subtitle ?? '')?.[1];
	if (!map) throw new Error(`the subtitle is not a map of actions: ${learningPlatform.subtitle}`);
	return JSON.parse(map) as Record<string, string>;
}
const actionOf = (resource: string, operation: string) => subtitleMap()[`${resource}:${operation}`];
const dryRunAction = (resource: string, operation: string) =>
	subtitleMap()[`${resource}:${operation}:dry run`];

/** A shipped example as a builder imports it; this n8n names the package's types CUSTOM.*. */
function importable(file: string): string {
	const example = JSON.parse(
		fs.readFileSync(path.join(repoRoot, 'examples', file), 'utf8'),
	) as WorkflowJson;
	const target = path.join(os.tmpdir(), `lp-ui-${file}`);
	fs.writeFileSync(target, JSON.stringify(toCustomNodeTypes(example)));
	return target;
}

async function waitUntil(what: string, condition: () => Promise<boolean>): Promise<void> {
	const deadline = Date.now() + 10_000;
	while (!(await condition())) {
		if (Date.now() > deadline) throw new Error(`waited 10 s for ${what}`);
		await delay(100);
	}
}

// ---- course picker ----

function courseListings(): number {
	return lms.requests().filter((entry) => entry.method === 'GET' && entry.path === COURSES_PATH)
		.length;
}

/** Waits until the open picker lists exactly these entries (in any order). */
async function waitForEntries(expected: string[]): Promise<void> {
	const deadline = Date.now() + 15_000;
	let listed: string[] = [];
	while (Date.now() < deadline) {
		listed = await editor.locatorItemTexts();
		if ([...listed].sort().join('|') === [...expected].sort().join('|')) return;
		await delay(100);
	}
	throw new Error(
		`the course picker lists [${listed.join(', ')}], expected [${expected.join(', ')}]`,
	);
}

// ---- screenshots ----

/** Course → Create or Update with a course typed in, for the README; the fields are emptied again after. */
async function screenshotCourseForm(): Promise<void> {
	const typed: Array<[string, string]> = [
		['externalId', 'safety-101'],
		['name', 'Safety basics'],
		['url', 'https://learn.example.com/courses/safety-101'],
	];
	// External ID is a picker typed by default ("By ID"): its value box, not its mode menu.
	const box = (parameter: string) =>
		parameter === 'externalId'
			? editor.locator(parameter).getByTestId('rlc-input')
			: editor.parameterInput(parameter).locator('input').first();
	for (const [parameter, value] of typed) {
		await box(parameter).fill(value);
	}
	await writeScreenshot('course-form.png', editor.ndv);
	for (const [parameter] of typed) {
		await box(parameter).fill('');
	}
}

/** The open form with these text fields typed in, for the README; emptied again after. */
async function screenshotFilled(
	file: string,
	typed: ReadonlyArray<readonly [string, string]>,
): Promise<void> {
	const box = (parameter: string) => editor.parameterInput(parameter).locator('input').first();
	for (const [parameter, value] of typed) await box(parameter).fill(value);
	await writeScreenshot(file, editor.ndv);
	for (const [parameter] of typed) await box(parameter).fill('');
}

async function writeScreenshot(file: string, target: Locator, { blur = true } = {}): Promise<void> {
	fs.mkdirSync(DOCS_DIR, { recursive: true });
	await editor.settleForPicture({ blur });
	await delay(300); // let transitions settle
	await target.screenshot({
		path: path.join(DOCS_DIR, file),
		animations: 'disabled',
		// Toasts ("Credential successfully created") are n8n's, not the form's.
		style: '.el-notification { display: none !important; }',
	});
}
