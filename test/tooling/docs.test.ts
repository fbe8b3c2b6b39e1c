/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
/**
 * Docs that cannot drift: links and anchors, the editor's Docs links, the README's Operations
 * table, documented defaults, quoted messages, the n8n versions named, and the shape issue 53
 * gave the README and the pages. Each check runs on the real files, and on a broken copy in a
 * test of its own, so it is known to fail.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { INodeTypeDescription } from 'n8n-workflow';

import { LearningPlatformOAuth2Api } from '../../credentials/LearningPlatformOAuth2Api.credentials';
import { XApiLrsApi } from '../../credentials/XApiLrsApi.credentials';
import { LearningPlatform } from '../../nodes/LearningPlatform/LearningPlatform.node';
import { XApi } from '../../nodes/XApi/XApi.node';
import { XApiTrigger } from '../../nodes/XApiTrigger/XApiTrigger.node';
import versions from '../../harness/n8n-versions.json';
import type { Parameters, ReadFile } from './docs/checks';
import {
	causeProblems,
	declaredCauses,
	defaultProblems,
	editorLinkProblems,
	linkProblems,
	mechanicsProblems,
	messageProblems,
	operationTableProblems,
	pageShapeProblems,
	readmeShapeProblems,
	readRepoFile,
	REPOSITORY,
	versionProblems,
} from './docs/checks';
import { ROOT } from './docs/markdown';
import { codeTemplates } from './docs/messages';

const read = (relative: string) => readRepoFile(relative)!;
const PAGES = fs
	.readdirSync(path.join(ROOT, 'docs'))
	.filter((file) => file.endsWith('.md'))
	.map((file) => `docs/${file}`);
const USER_PAGES = ['README.md', ...PAGES];
const LINKED = [...USER_PAGES, 'CONTRIBUTING.md', 'ARCHITECTURE.md'];
const README = read('README.md');
const TROUBLESHOOTING = read('docs/troubleshooting.md');

/** The repository as it is, with some files replaced. */
const withFiles =
	(replaced: Record<string, string>): ReadFile =>
	(relative) =>
		relative in replaced ? replaced[relative] : readRepoFile(relative);

const nodes: Record<string, INodeTypeDescription> = {
	learningPlatform: new LearningPlatform().description,
	xApi: new XApi().description,
	xApiTrigger: new XApiTrigger().description,
};
const credentials = [new LearningPlatformOAuth2Api(), new XApiLrsApi()];
const parameters: Parameters = {
	node: nodes,
	credential: Object.fromEntries(credentials.map((credential) => [credential.name, credential])),
};

function filesUnder(folder: string): string[] {
	return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const file = path.join(folder, entry.name);
		return entry.isDirectory() ? filesUnder(file) : [file];
	});
}

/** What n8n's editor links to: credentials' documentationUrl, the codex files' documentation. */
function editorLinks(): string[] {
	const codex = filesUnder(path.join(ROOT, 'nodes'))
		.filter((file) => file.endsWith('.node.json'))
		.flatMap((file) => {
			const { resources } = JSON.parse(fs.readFileSync(file, 'utf8')) as {
				resources: Record<string, Array<{ url: string }>>;
			};
			return Object.values(resources).flatMap((entries) => entries.map((entry) => entry.url));
		});
	return [...credentials.map((credential) => credential.documentationUrl as string), ...codex];
}

describe('links and anchors', () => {
	test.each(LINKED)('every relative link and #anchor of %s resolves', (file) => {
		expect(linkProblems(file)).toEqual([]);
	});

	test('a link to a missing file fails', () => {
		const broken = withFiles({ 'README.md': `${README}\n[gone](docs/no-such-page.md)\n` });
		expect(linkProblems('README.md', broken)).toEqual([
			expect.stringContaining('docs/no-such-page.md does not exist'),
		]);
	});

	test('an anchor that is no heading fails, in the same file and in another', () => {
		const broken = withFiles({
			'docs/install.md': `${read('docs/install.md')}\n[a](#no-such-heading) [b](credentials.md#nor-this)\n`,
		});
		expect(linkProblems('docs/install.md', broken)).toEqual([
			expect.stringContaining('docs/install.md has no heading #no-such-heading'),
			expect.stringContaining('docs/credentials.md has no heading #nor-this'),
		]);
	});

	test('a missing image fails, and a link out of the repository is not followed', () => {
		const broken = withFiles({ 'docs/xapi.md': '![x](no-such.png) [y](../../elsewhere.md)\n' });
		expect(linkProblems('docs/xapi.md', broken)).toEqual([
			expect.stringContaining('docs/no-such.png does not exist'),
			expect.stringContaining('outside the repository'),
		]);
	});
});

describe("the editor's Docs links", () => {
	test('every documentationUrl and codex documentation link lands on a heading', () => {
		const links = editorLinks();
		expect(links.length).toBeGreaterThanOrEqual(8);
		expect(editorLinkProblems(links)).toEqual([]);
	});

	test('the repository they name is the package.json repository', () => {
		const { repository } = JSON.parse(read('package.json')) as { repository: { url: string } };
		expect(repository.url.replace(/\.git$/, '')).toBe(REPOSITORY);
	});

	test('a link to a heading that moved fails, and so does one to another site', () => {
		expect(
			editorLinkProblems([
				`${REPOSITORY}#the-learning-platform-node`,
				`${REPOSITORY}/blob/main/docs/xapi.md#no-such-heading`,
				'https://example.com/docs#credentials',
			]),
		).toEqual([
			expect.stringContaining('README.md has no heading #the-learning-platform-node'),
			expect.stringContaining('docs/xapi.md has no heading #no-such-heading'),
			expect.stringContaining('not a page of'),
		]);
	});
});

describe("the README's Operations table", () => {
	const described = Object.values(nodes);

	test('lists every resource and operation of the three nodes, and nothing else', () => {
		expect(operationTableProblems(README, described)).toEqual([]);
	});

	test('a missing operation fails', () => {
		const broken = README.split('\n')
			.filter((line) => !line.startsWith('| | | Wait |'))
			.join('\n');
		expect(operationTableProblems(broken, described)).toEqual([
			"missing from the README's Operations: Learning Platform → Transaction → Wait",
		]);
	});

	test('an operation the nodes do not have fails', () => {
		const broken = README.replace('| | | Void |', '| | | Delete |');
		expect(operationTableProblems(broken, described)).toEqual([
			"missing from the README's Operations: xAPI → Statement → Void",
			'no such operation: xAPI → Statement → Delete',
		]);
	});
});

describe('documented defaults', () => {
	test.each(USER_PAGES)('every defaults table of %s gives the code’s defaults', (file) => {
		expect(defaultProblems(file, read(file), parameters)).toEqual([]);
	});

	test('the pages document the defaults of every node and credential', () => {
		const targets = USER_PAGES.flatMap((file) =>
			[...read(file).matchAll(/<!-- defaults: (credential )?(\w+)/g)].map((m) => m[2]),
		);
		expect(new Set(targets)).toEqual(
			new Set([...Object.keys(parameters.node), ...Object.keys(parameters.credential)]),
		);
	});

	test('a default that differs from the code fails', () => {
		const broken = read('docs/courses.md').replace(
			'| Timeout (Seconds) | 120 |',
			'| Timeout (Seconds) | 90 |',
		);
		expect(defaultProblems('docs/courses.md', broken, parameters)).toEqual([
			expect.stringContaining(
				'"Timeout (Seconds)" is documented as 90, the code\'s default is 120',
			),
		]);
	});

	test('a wrong on/off, option or text default fails, and so does a parameter that does not exist', () => {
		const broken = [
			'<!-- defaults: learningPlatform resource=course operation=sync -->',
			'',
			'| Option | Default |',
			'|---|---|',
			'| Skip Unchanged | off |',
			'| Output | Summary |',
			'| Memory Key | `nightly` |',
			'| Archive Everything | on |',
		].join('\n');
		expect(defaultProblems('page.md', broken, parameters)).toEqual([
			expect.stringContaining('"Skip Unchanged" is documented as off'),
			expect.stringContaining('"Output" is documented as Summary'),
			expect.stringContaining('"Memory Key" is documented as `nightly`'),
			expect.stringContaining('"Archive Everything" is not a parameter'),
		]);
	});
});

describe('messages quoted in the troubleshooting page', () => {
	const templates = codeTemplates();

	test('are all messages the code can build', () => {
		expect(messageProblems(TROUBLESHOOTING, templates)).toEqual([]);
	});

	test('a message the code does not build fails, as does one whose wording changed', () => {
		const table = (quote: string) =>
			`| What n8n shows | Why | What to do |\n|---|---|---|\n| \`${quote}\` | x | y |\n`;
		for (const quote of [
			'Could not fetch a token from the platform (HTTP 401)',
			'Nothing was written: the sync would remove … of … courses, above the limit',
			'Transaction … is still running after … s',
		]) {
			expect(messageProblems(table(quote), templates)).toEqual([
				expect.stringContaining('not a message the code builds'),
			]);
		}
	});

	test('name every failure cause the code declares', () => {
		const sources = filesUnder(path.join(ROOT, 'nodes'))
			.filter((file) => file.endsWith('.ts'))
			.map((file) => fs.readFileSync(file, 'utf8'));
		const causes = declaredCauses(sources);
		expect(causes).toEqual(
			expect.arrayContaining(['configuration-invalid', 'credential-invalid', 'rate-limited']),
		);
		expect(causeProblems(TROUBLESHOOTING, causes)).toEqual([]);
		expect(
			causeProblems(TROUBLESHOOTING.replace(/`rate-limited`/g, 'rate limited'), causes),
		).toEqual(['the troubleshooting page does not name the declared cause rate-limited']);
	});
});

describe('n8n versions', () => {
	const tested = Object.values(versions).map((entry) => entry.version);
	const pages = PAGES.map((file) => [file, read(file)] as [string, string]);

	test('come from the e2e version list, each named once in the README', () => {
		expect(versionProblems(README, pages, tested)).toEqual([]);
	});

	test('a version not in the list, or one named twice, fails', () => {
		const [latest] = tested;
		const stale = README.replace(latest, '2.39.0');
		expect(versionProblems(stale, pages, tested)).toEqual([
			expect.stringContaining('names n8n 2.39.0, which is not a tested version'),
			expect.stringContaining(`Compatibility does not name the tested n8n ${latest}`),
		]);
		const twice = `${README}\nRun it in n8n ${latest}.\n`;
		expect(versionProblems(twice, pages, tested)).toEqual([
			`README.md names n8n ${latest} 2 times`,
			'README.md names 3 n8n patch versions',
		]);
		expect(versionProblems(README, [['docs/x.md', 'Since n8n 1.120.3.']], tested)).toEqual([
			'docs/x.md names n8n 1.120.3, which is not a tested version',
		]);
	});

	test('xAPI, Node.js and the package’s own versions are not n8n’s', () => {
		expect(
			versionProblems(
				README,
				[['docs/x.md', 'xAPI 1.0.3, Node.js 20.15.0, n8n-nodes-learning-platform@0.1.0']],
				tested,
			),
		).toEqual([]);
	});
});

describe('the shape of the README and the pages', () => {
	test('the README is short, in the order of n8n’s best packages', () => {
		expect(readmeShapeProblems(README)).toEqual([]);
	});

	test('a README that grows, or gains a maintainer section, fails', () => {
		const long = `${README}\n${'More.\n'.repeat(120)}`;
		expect(readmeShapeProblems(long)).toEqual([expect.stringContaining('lines (at most 300)')]);
		const maintainer = README.replace(
			'## License',
			'## Publishing a release\n\nSteps.\n\n## License',
		);
		expect(readmeShapeProblems(maintainer)).toEqual([
			expect.stringContaining("README.md's sections are"),
		]);
		const late = README.replace('## Installation', `${'Intro.\n\n'.repeat(25)}## Installation`);
		expect(readmeShapeProblems(late)).toEqual([
			expect.stringContaining('Installation starts at line'),
		]);
		const wordy = README.replace(
			'## License',
			`${Array.from({ length: 6 }, () => `${'word '.repeat(45)}end.`).join('\n\n')}\n\n## License`,
		);
		expect(readmeShapeProblems(wordy)).toEqual([
			expect.stringContaining('sentences over 40 words'),
		]);
	});

	test('docs/ has at least six topic pages', () => {
		expect(PAGES.length).toBeGreaterThanOrEqual(6);
	});

	test.each(PAGES)('%s is at most 400 lines, its sentences 24 words on average', (file) => {
		expect(pageShapeProblems(file, read(file))).toEqual([]);
	});

	test('a page of long sentences fails', () => {
		const long = `# Page\n\n${`${'word '.repeat(30)}end. `.repeat(5)}\n`;
		expect(pageShapeProblems('docs/x.md', long)).toEqual([
			expect.stringContaining('sentences average'),
		]);
	});
});

describe('user pages leave mechanics to ARCHITECTURE.md and figures to bench/RESULTS.md', () => {
	test.each(USER_PAGES)('%s names no source file, algorithm, hash width or ratio', (file) => {
		expect(mechanicsProblems(file, read(file))).toEqual([]);
	});

	test('each kind is found', () => {
		const page = [
			'The cursor lives in nodes/XApiTrigger/cursor.ts.',
			'IDs are compared after NFKC folding.',
			'A 12-character hash of the external ID.',
			'Workers keep 0.963 of the ceiling.',
			'40.8× fewer requests.',
		].join('\n');
		expect(mechanicsProblems('docs/x.md', page).map((p) => p.split(': ')[1])).toEqual([
			'a source file name in a user page',
			'an algorithm name in a user page',
			'a hash width in a user page',
			'a benchmark ratio in a user page',
			'a benchmark ratio in a user page',
		]);
	});
});
