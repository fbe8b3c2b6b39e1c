/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import type { Locator, Page } from 'playwright-core';

/*
 * The n8n 2.x editor as a builder uses it, by the `data-test-id` attributes
 * the editor itself carries (the same ones n8n's own browser tests use).
 */

const STEP_TIMEOUT_MS = 20_000;

/** Anything in the page that offers a list: an open select, the "Add field" list, the mode list. */
function openList(page: Page): Locator {
	return page.locator('.el-popper:visible');
}

function exactly(text: string): RegExp {
	return new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
}

export class Editor {
	constructor(readonly page: Page) {}

	/** A blank workflow; n8n 2.x gives it an id at once (/workflow/<id>?new=true). */
	async openNewWorkflow(): Promise<void> {
		// The editor's first load can take longer than a step on a busy machine.
		await this.page.goto('/workflow/new', { timeout: 60_000 });
		await this.page.getByTestId('canvas-add-button').waitFor({ timeout: 60_000 });
	}

	/**
	 * For a picture: no focused field (its hints and outline; unless an open
	 * list needs the focus), the pointer out of the way.
	 */
	async settleForPicture({ blur = true }: { blur?: boolean } = {}): Promise<void> {
		if (blur)
			await this.page.evaluate(() => {
				const active = (
					globalThis as { document?: { activeElement?: { blur?: () => void } | null } }
				).document?.activeElement;
				active?.blur?.();
			});
		await this.page.mouse.move(0, 0);
	}

	/** Workflow menu → Import from File…, as a builder imports a shipped example. */
	async importWorkflowFile(file: string): Promise<void> {
		await this.page.getByTestId('workflow-menu').click();
		const item = this.page.getByTestId('workflow-menu-item-import-from-file');
		// n8n 2.x lists it in the menu's Import submenu.
		if (!(await item.isVisible())) await this.page.getByTestId('workflow-menu-item-import').hover();
		const [chooser] = await Promise.all([this.page.waitForEvent('filechooser'), item.click()]);
		await chooser.setFiles(file);
		await this.page.getByTestId('canvas-node').first().waitFor();
	}

	async zoomToFit(): Promise<void> {
		await this.page.getByTestId('zoom-to-fit').click();
	}

	canvasNode(name: string): Locator {
		return this.page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
	}

	/** The line under a node's name on the canvas (the node's subtitle); '' when it has none. */
	async canvasSubtitle(node: Locator): Promise<string> {
		const subtitle = node.locator('[class*="_subtitle_"]');
		return (await subtitle.count()) === 0 ? '' : (await subtitle.first().innerText()).trim();
	}

	// ---- node creator ----

	get nodeCreator(): Locator {
		return this.page.getByTestId('node-creator');
	}

	/** Opens the node creator: the "Add first step" square on a blank canvas, else the + button. */
	async openNodeCreator(firstStep: boolean): Promise<void> {
		await this.page
			.getByTestId(firstStep ? 'canvas-add-button' : 'node-creator-plus-button')
			.click();
		await this.nodeCreator.getByTestId('node-creator-search-bar').waitFor();
	}

	/** Searches the node creator and opens the node's panel of actions and triggers. */
	async openNodeInCreator(search: string, nodeName: string): Promise<void> {
		await this.nodeCreator.getByTestId('node-creator-search-bar').fill(search);
		const item = this.creatorItems().filter({
			has: this.page.getByTestId('node-creator-item-name').filter({ hasText: exactly(nodeName) }),
		});
		await item.first().click();
		await this.nodeCreator
			.getByTestId('nodes-list-header')
			.filter({ hasText: nodeName })
			.first()
			.waitFor();
	}

	creatorItems(): Locator {
		return this.nodeCreator.getByTestId('item-iterator-item');
	}

	/** The first line of every item the node creator lists now. */
	async creatorItemTexts(): Promise<string[]> {
		return (await this.creatorItems().allInnerTexts()).map(firstLine);
	}

	async creatorCategories(): Promise<string[]> {
		return (await this.nodeCreator.getByTestId('node-creator-category-item').allInnerTexts()).map(
			firstLine,
		);
	}

	async expandCreatorCategory(prefix: string): Promise<void> {
		await this.nodeCreator
			.getByTestId('node-creator-category-item')
			.filter({ hasText: prefix })
			.click();
	}

	/** Picks an action (or trigger event): n8n adds the node and opens it. */
	async pickCreatorItem(text: string): Promise<void> {
		await this.creatorItems()
			.filter({ hasText: exactly(text) })
			.first()
			.click();
		await this.ndv.waitFor({ timeout: STEP_TIMEOUT_MS });
	}

	// ---- node details view ----

	get ndv(): Locator {
		return this.page.getByTestId('ndv');
	}

	async closeNdv(): Promise<void> {
		if (await this.ndv.isVisible()) {
			await this.page.getByTestId('ndv-close-button').click();
			await this.ndv.waitFor({ state: 'hidden' });
		}
	}

	async openNode(name: string): Promise<void> {
		await this.canvasNode(name).dblclick();
		await this.ndv.waitFor();
	}

	parameterInput(name: string): Locator {
		return this.ndv.getByTestId(`parameter-input-${name}`);
	}

	/** Chooses an option of a select parameter by its display name, as a builder does. */
	async choose(parameter: string, option: string): Promise<void> {
		await this.parameterInput(parameter).first().click();
		await this.chooseInOpenList(option);
	}

	async chooseInOpenList(option: string): Promise<void> {
		const item = openList(this.page)
			.getByRole('option')
			.filter({ has: this.page.getByText(option, { exact: true }) })
			.first();
		await item.click();
		await item.waitFor({ state: 'hidden' });
	}

	/** Flips a boolean parameter's switch. */
	async toggle(parameter: string): Promise<void> {
		await this.parameterInput(parameter).locator('.el-switch').click();
	}

	/**
	 * The parameters the Parameters tab shows now, each with its name (the
	 * label's `for`; empty for the credential slot) and its label's own text
	 * (without the "Fixed / Expression" toggle).
	 */
	async shownParameters(): Promise<Array<{ name: string; label: string }>> {
		const pairs = await this.ndv
			.locator('label.n8n-input-label:visible')
			.evaluateAll((labels) =>
				labels.map((label) => [
					label.getAttribute('for') ?? '',
					(label as { innerText: string }).innerText,
				]),
			);
		return pairs.map(([name, text]) => ({
			name: name === 'null' ? '' : name,
			label: labelText(text),
		}));
	}

	/** Whether the form shows this text (a notice's, for instance) in full. */
	async showsText(text: string): Promise<boolean> {
		return await this.ndv
			.getByText(text, { exact: true })
			.filter({ visible: true })
			.first()
			.isVisible();
	}

	/** The names of the parameters whose input shows `[object Object]` instead of a value. */
	async objectObjectInputs(): Promise<string[]> {
		return await this.ndv
			.locator('[data-test-id^="parameter-input-"]:visible')
			.evaluateAll((inputs) =>
				inputs
					.filter((input) =>
						Array.from(input.querySelectorAll('input, textarea')).some(
							(field) => (field as unknown as { value: string }).value === '[object Object]',
						),
					)
					.map((input) =>
						(input.getAttribute('data-test-id') ?? '').replace(/^parameter-input-/, ''),
					),
			);
	}

	/**
	 * What a collection's "Add …" control offers, leaving the form as it was:
	 * a list (read, then closed), or, for a collection of one field, a button
	 * that adds it at once (clicked, the field read, then deleted again).
	 * [] when every field is on the form already (n8n then shows no control).
	 */
	async collectionOffers(parameter: string): Promise<string[]> {
		const container = this.ndv
			.getByTestId('parameter-item')
			.filter({ has: this.page.locator(`label[for="${parameter}"]`) })
			.filter({ visible: true })
			.last();
		const add = container.getByTestId('collection-parameter-add').filter({ visible: true }).first();
		if ((await add.count()) === 0) return [];
		if ((await add.evaluate((element) => element.tagName)) === 'BUTTON') {
			const before = await fieldsIn(container, parameter);
			await add.click();
			let after = before;
			for (let tries = 0; tries < 50 && after.length === before.length; tries++) {
				await this.page.waitForTimeout(100);
				after = await fieldsIn(container, parameter);
			}
			const added = after.filter((field) => !before.some((old) => old.name === field.name));
			for (const field of added) {
				await container
					.getByTestId('parameter-item')
					.filter({ has: this.page.locator(`label[for="${field.name}"]`) })
					.locator('button[title="Delete"]')
					.first()
					.click();
			}
			return added.map((field) => field.label);
		}
		await add.click();
		const options = openList(this.page).getByRole('option');
		await options.first().waitFor();
		const offered = (await options.allInnerTexts()).map(firstLine);
		await this.page.keyboard.press('Escape');
		await options.first().waitFor({ state: 'hidden' });
		return offered;
	}

	/** Adds a field to a collection through its "Add …" list, by the field's display name. */
	async addCollectionField(parameter: string, field: string): Promise<void> {
		const container = this.ndv
			.getByTestId('parameter-item')
			.filter({ has: this.page.locator(`label[for="${parameter}"]`) })
			.filter({ visible: true })
			.last();
		await container
			.getByTestId('collection-parameter-add')
			.filter({ visible: true })
			.first()
			.click();
		await this.chooseInOpenList(field);
	}

	/** The hint n8n shows under a parameter's field ('' when none): its text, below the input. */
	async parameterHint(name: string): Promise<string> {
		const item = this.ndv
			.getByTestId('parameter-item')
			.filter({ has: this.page.locator(`label[for="${name}"]`) })
			.filter({ visible: true })
			.last();
		// n8n 2.x renders it as text inside the input's wrapper, with no test id of its own.
		const hint = item.getByTestId('parameter-input').locator('.n8n-text');
		return (await hint.count()) === 0 ? '' : (await hint.first().innerText()).trim();
	}

	// ---- resource locator (the course picker) ----

	locator(parameter: string): Locator {
		return this.ndv.getByTestId(`resource-locator-${parameter}`);
	}

	async locatorModes(parameter: string): Promise<string[]> {
		await this.locator(parameter).getByTestId('rlc-mode-selector').click();
		const options = openList(this.page).getByRole('option');
		await options.first().waitFor();
		const modes = (await options.allInnerTexts()).map(firstLine);
		await this.page.keyboard.press('Escape');
		await options.first().waitFor({ state: 'hidden' });
		return modes;
	}

	/** The mode the picker shows now ("From list", "By ID"), or '' when it shows none. */
	async locatorMode(parameter: string): Promise<string> {
		return await this.locator(parameter)
			.getByTestId('rlc-mode-selector')
			.locator('input')
			.first()
			.inputValue();
	}

	async chooseLocatorMode(parameter: string, mode: string): Promise<void> {
		await this.locator(parameter).getByTestId('rlc-mode-selector').click();
		await this.chooseInOpenList(mode);
	}

	/** Opens the "From list" dropdown and waits for its first entries. */
	async openLocatorList(parameter: string): Promise<void> {
		await this.locator(parameter).getByTestId('rlc-input').click();
		await this.page.getByTestId('rlc-search').waitFor();
	}

	locatorItems(): Locator {
		return this.page.getByTestId('rlc-item').filter({ visible: true });
	}

	async locatorItemTexts(): Promise<string[]> {
		return (await this.locatorItems().allInnerTexts()).map(firstLine);
	}

	/** Types into the list's search box (n8n asks the node's search method again, debounced). */
	async searchLocatorList(text: string): Promise<void> {
		await this.page.getByTestId('rlc-search').fill(text);
	}

	// ---- credentials ----

	get credentialModal(): Locator {
		return this.page.getByTestId('editCredential-modal');
	}

	/** The "Connect to …" button of a node without a credential: opens a new credential of its type. */
	async openNewCredentialFromNode(): Promise<void> {
		await this.ndv.getByTestId('node-credentials-empty-state').click();
		await this.credentialModal.getByTestId('credential-save-button').waitFor();
	}

	/** The credential dialog's fields as their labels read (without the required mark). */
	async credentialFields(): Promise<string[]> {
		const labels = await this.credentialModal
			.getByTestId('credential-connection-parameter')
			.filter({ visible: true })
			.evaluateAll((fields) =>
				fields.map(
					(field) =>
						(field.querySelector('label') as { innerText: string } | null)?.innerText ?? '',
				),
			);
		return labels.map(labelText).filter((label) => label !== '');
	}

	async credentialShowsText(text: string): Promise<boolean> {
		return await this.credentialModal.getByText(text, { exact: true }).first().isVisible();
	}

	async fillCredentialField(name: string, value: string): Promise<void> {
		const input = this.credentialModal
			.getByTestId(`parameter-input-${name}`)
			.locator('input, textarea')
			.first();
		await input.fill(value);
	}

	async chooseCredentialOption(name: string, option: string): Promise<void> {
		await this.credentialModal.getByTestId(`parameter-input-${name}`).click();
		await this.chooseInOpenList(option);
	}

	/** The dialog box itself (not the dimmed page around it), for screenshots. */
	credentialDialog(): Locator {
		return this.page
			.locator('.el-dialog')
			.filter({ has: this.page.getByTestId('credential-edit-dialog') });
	}

	/**
	 * Saves the credential. n8n then runs the credential's Test; resolves with
	 * "success" or the message the dialog shows for a failed test.
	 */
	async saveCredential(): Promise<
		{ outcome: 'success' } | { outcome: 'failure'; message: string }
	> {
		await this.credentialModal.getByTestId('credential-save-button').click();
		const success = this.credentialModal
			.getByTestId('credentials-config-container-test-success')
			.filter({ visible: true });
		// The failure banner: its message, "More details", and a Retry button.
		const failure = this.credentialModal
			.locator('div')
			.filter({ has: this.page.getByText(/Couldn.t connect with these settings/) })
			.filter({ has: this.page.getByRole('button', { name: 'Retry' }) })
			.last();
		// A new credential saved from a node's panel closes its dialog once its Test passed.
		const closed = this.credentialModal
			.waitFor({ state: 'hidden', timeout: 60_000 })
			.then(() => 'closed' as const);
		const shown = success
			.or(failure)
			.first()
			.waitFor({ timeout: 60_000 })
			.then(() => 'shown' as const);
		const first = await Promise.race([closed, shown]);
		closed.catch(() => undefined);
		shown.catch(() => undefined);
		if (first === 'closed' || (await success.isVisible())) return { outcome: 'success' };
		const details = failure.getByText('More details');
		if (await details.isVisible()) {
			await details.click();
			await this.page.waitForTimeout(300);
		}
		// The details open below the banner's first row.
		const banner = failure.locator('xpath=..');
		return { outcome: 'failure', message: (await banner.innerText()).replace(/\s+/g, ' ').trim() };
	}

	async closeCredentialModal(): Promise<void> {
		if (!(await this.credentialModal.isVisible())) return;
		await this.credentialModal.locator('.el-dialog__headerbtn, .el-dialog__close').first().click();
		await this.credentialModal.waitFor({ state: 'hidden' });
	}
}

/** The fields inside a collection, by their labels. */
async function fieldsIn(
	container: Locator,
	collection: string,
): Promise<Array<{ name: string; label: string }>> {
	const pairs = await container
		.locator('label[for]')
		.evaluateAll((labels) =>
			labels.map((label) => [
				label.getAttribute('for') ?? '',
				(label as { innerText: string }).innerText,
			]),
		);
	return pairs
		.filter(([name]) => name !== collection)
		.map(([name, text]) => ({ name, label: labelText(text) }));
}

function firstLine(text: string): string {
	return text.split('\n')[0].trim();
}

/** A label's own text: its first line, without the red `*` of a required field. */
function labelText(text: string): string {
	return firstLine(text)
		.replace(/\s*\*$/, '')
		.trim();
}
