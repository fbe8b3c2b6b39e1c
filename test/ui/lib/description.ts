/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import * as path from 'node:path';

import type {
	ICredentialType,
	INodeProperties,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
	NodeParameterValue,
} from 'n8n-workflow';

/*
 * What the built package declares, read from dist/ (what n8n loads): the
 * editor must show every parameter a form declares, under its display name.
 */

type Values = Record<string, unknown>;

export function loadNode(
	packageDir: string,
	file: string,
	className: string,
): INodeTypeDescription {
	const module = require(path.join(packageDir, file)) as Record<string, new () => INodeType>;
	return new module[className]().description;
}

export function loadCredential(
	packageDir: string,
	file: string,
	className: string,
): ICredentialType {
	const module = require(path.join(packageDir, file)) as Record<string, new () => ICredentialType>;
	return new module[className]();
}

/** The `action` texts the node creator lists, one per operation. */
export function actionNames(description: INodeTypeDescription): string[] {
	return description.properties
		.filter((property) => property.name === 'operation' && property.type === 'options')
		.flatMap((property) => (property.options ?? []) as INodePropertyOptions[])
		.map((option) => option.action)
		.filter((action): action is string => typeof action === 'string');
}

/** The value behind an option's display name, for a parameter visible with `values`. */
export function optionValue(
	properties: INodeProperties[],
	name: string,
	displayName: string,
	values: Values,
): NodeParameterValue {
	const property = properties.find(
		(candidate) => candidate.name === name && isShown(candidate, values) === true,
	);
	const option = ((property?.options ?? []) as INodePropertyOptions[]).find(
		(candidate) => candidate.name === displayName,
	);
	if (!property || !option)
		throw new Error(`no option "${displayName}" of ${name} in the description`);
	return option.value;
}

/** Every top-level parameter's default, as a fresh node has it (the first declaration of each name). */
export function defaultValues(properties: INodeProperties[]): Values {
	const values: Values = {};
	for (const property of properties) {
		if (!(property.name in values)) values[property.name] = property.default;
	}
	return values;
}

/**
 * The parameters the form shows for `values`. A parameter whose display
 * conditions this simple reading cannot decide (anything but lists of plain
 * values) is left out rather than guessed.
 */
export function shownProperties(properties: INodeProperties[], values: Values): INodeProperties[] {
	return properties.filter((property) => isShown(property, values) === true);
}

function isShown(property: INodeProperties, values: Values): boolean | 'unknown' {
	const { show, hide } = property.displayOptions ?? {};
	for (const [key, wanted] of Object.entries(show ?? {})) {
		const match = matches(key, wanted, values);
		if (match !== true) return match;
	}
	for (const [key, unwanted] of Object.entries(hide ?? {})) {
		const match = matches(key, unwanted, values);
		if (match !== false) return match === true ? false : match;
	}
	return true;
}

function matches(key: string, listed: unknown, values: Values): boolean | 'unknown' {
	if (key.startsWith('@') || !Array.isArray(listed)) return 'unknown';
	if (listed.some((value) => typeof value === 'object' && value !== null)) return 'unknown';
	const name = key.replace(/^\//, '');
	if (!(name in values)) return 'unknown';
	return listed.includes(values[name]);
}

/**
 * The fields a collection's "Add …" list offers on a fresh form: its options
 * minus those its default already holds (those are shown as fields already).
 */
export function offeredCollectionFields(property: INodeProperties): string[] {
	const present = Object.keys((property.default ?? {}) as Values);
	return ((property.options ?? []) as INodeProperties[])
		.filter((option) => !present.includes(option.name))
		.map((option) => option.displayName);
}
