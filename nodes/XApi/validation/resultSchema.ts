/** The result of a statement and its score (xAPI-Data 2.4.5). */
import { isPlainObject } from './describe';
import { duration, extensions, numberWhere } from './primitives';
import { addTo, number, text, trueOrFalse, withRules, type Problems } from './schema';
import { strictObject } from './strictObject';

const scaled = numberWhere(
	(value) => value >= -1 && value <= 1,
	(value) =>
		`${value} is outside the allowed range: a scaled score is between -1 and 1 (inclusive)`,
);

/** raw lies between min and max, and min does not exceed max (xAPI-Data 2.4.5.1). */
function scoreRangeRules(score: unknown): Problems {
	if (!isPlainObject(score)) return undefined;
	const { raw, min, max } = score;
	let problems: Problems;
	if (typeof min === 'number' && typeof max === 'number' && min > max) {
		const message = `${min} is greater than "max" (${max}): the lowest possible score cannot exceed the highest`;
		problems = addTo(problems, message, ['min']);
	}
	if (typeof raw !== 'number') return problems;
	if (typeof min === 'number' && raw < min)
		problems = addTo(problems, `${raw} is below "min" (${min})`, ['raw']);
	if (typeof max === 'number' && raw > max)
		problems = addTo(problems, `${raw} is above "max" (${max})`, ['raw']);
	return problems;
}

export const scoreShape = strictObject({
	scaled: scaled.optional(),
	raw: number.optional(),
	min: number.optional(),
	max: number.optional(),
});

export const resultShape = strictObject({
	score: withRules(scoreShape, scoreRangeRules).optional(),
	success: trueOrFalse.optional(),
	completion: trueOrFalse.optional(),
	response: text.optional(),
	duration: duration.optional(),
	extensions: extensions.optional(),
});
