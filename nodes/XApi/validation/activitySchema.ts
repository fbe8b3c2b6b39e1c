/** Activities and their definitions, interaction Activities included (xAPI-Data 2.4.4.1). */
import { isPlainObject, listOf, quote } from './describe';
import { extensions, iri, irl, languageMap, oneOf } from './primitives';
import { addTo, arrayOf, literal, text, withRules, type Problems } from './schema';
import { strictObject } from './strictObject';
import type { InteractionType } from './types';

export const INTERACTION_TYPES = [
	'true-false',
	'choice',
	'fill-in',
	'long-fill-in',
	'matching',
	'performance',
	'sequencing',
	'likert',
	'numeric',
	'other',
] as const satisfies readonly InteractionType[];

const COMPONENT_LISTS = ['choices', 'scale', 'source', 'target', 'steps'] as const;
type ComponentList = (typeof COMPONENT_LISTS)[number];

/** Which interaction component lists each interactionType supports (xAPI-Data 2.4.4.1.s15). */
const LISTS_BY_INTERACTION_TYPE: Record<InteractionType, readonly ComponentList[]> = {
	'true-false': [],
	choice: ['choices'],
	'fill-in': [],
	'long-fill-in': [],
	matching: ['source', 'target'],
	performance: ['steps'],
	sequencing: ['choices'],
	likert: ['scale'],
	numeric: [],
	other: [],
};

export const interactionComponentShape = strictObject({
	id: text,
	description: languageMap.optional(),
});
const componentList = arrayOf(interactionComponentShape).optional();

/** Component lists fit the interactionType and their ids are distinct (xAPI-Data 2.4.4.1.s13-s16). */
function interactionRules(definition: unknown): Problems {
	if (!isPlainObject(definition)) return undefined;
	const interactionType = definition.interactionType;
	const knownType = INTERACTION_TYPES.find((type) => type === interactionType);
	const supported: readonly string[] = knownType ? LISTS_BY_INTERACTION_TYPE[knownType] : [];
	let problems: Problems;
	if (interactionType === undefined && definition.correctResponsesPattern !== undefined) {
		problems = addTo(problems, 'is only allowed together with "interactionType"', [
			'correctResponsesPattern',
		]);
	}
	for (const listName of COMPONENT_LISTS) {
		const components = definition[listName];
		if (components === undefined) continue;
		if (!supported.includes(listName)) {
			const allowedWith = INTERACTION_TYPES.filter((type) =>
				LISTS_BY_INTERACTION_TYPE[type].includes(listName),
			);
			const current =
				typeof interactionType === 'string' ? `, not "${interactionType}"` : ', which is missing';
			problems = addTo(
				problems,
				`is only allowed when "interactionType" is ${listOf(allowedWith)}${current}`,
				[listName],
			);
		}
		if (Array.isArray(components)) problems = duplicateIdProblems(components, listName, problems);
	}
	return problems;
}

function duplicateIdProblems(
	components: unknown[],
	listName: string,
	problems: Problems,
): Problems {
	const seen = new Set<unknown>();
	components.forEach((component, index) => {
		const id = isPlainObject(component) ? component.id : undefined;
		if (typeof id !== 'string') return;
		if (seen.has(id)) {
			problems = addTo(
				problems,
				`${quote(id)} is used twice in "${listName}": ids must be distinct`,
				[listName, index, 'id'],
			);
		}
		seen.add(id);
	});
	return problems;
}

export const activityDefinitionShape = strictObject({
	name: languageMap.optional(),
	description: languageMap.optional(),
	type: iri.optional(),
	moreInfo: irl.optional(),
	interactionType: oneOf(INTERACTION_TYPES).optional(),
	correctResponsesPattern: arrayOf(text).optional(),
	choices: componentList,
	scale: componentList,
	source: componentList,
	target: componentList,
	steps: componentList,
	extensions: extensions.optional(),
});

const activityDefinition = withRules(activityDefinitionShape, interactionRules);

export const activityShape = strictObject({
	objectType: literal('Activity').optional(),
	id: iri,
	definition: activityDefinition.optional(),
});

export const activity = activityShape;
