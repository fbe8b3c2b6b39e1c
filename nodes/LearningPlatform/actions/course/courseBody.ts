import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import {
	flexibleDate,
	flexibleDateTime,
	httpUrl,
	listOfStrings,
	positiveAmount,
	safeId,
} from '../../../shared/validation';

const nonEmpty = z.string({ required_error: 'is required' }).trim().min(1, 'is required');
const contentType = z.enum(['article', 'course', 'video']);

const price = z
	.object({
		amount: positiveAmount,
		currency: z.enum(['INR', 'USD']),
	})
	.strict();

const language = z
	.object({
		languageCode: z
			.string()
			.trim()
			.regex(/^[A-Za-z]{2}$/, 'must be a two-letter language code such as en'),
		title: z.string().optional(),
		url: httpUrl.optional().or(z.literal('')),
		description: z.string().optional(),
	})
	.strict();

export const courseAdditionalFieldsSchema = z
	.object({
		description: z.string().optional(),
		contentType: contentType.optional(),
		courseType: contentType.optional(),
		isPrivate: z.boolean().optional(),
		durationSec: z
			.number()
			.int('must be a whole number of seconds')
			.nonnegative('cannot be negative')
			.optional(),
		publishedAt: flexibleDate.optional(),
		status: z.enum(['active', 'archived']).optional(),
		level: z.enum(['beginner', 'intermediate', 'advanced']).optional(),
		skills: listOfStrings.optional(),
		tags: listOfStrings.optional(),
		imageUrl: httpUrl.optional().or(z.literal('')),
		languages: z
			.object({ language: z.array(language).optional() })
			.strict()
			.optional(),
		expirationDate: flexibleDateTime.optional(),
		groupIds: listOfStrings.optional(),
		channelIds: listOfStrings.optional(),
		restrictedGroupIds: listOfStrings.optional(),
	})
	.strict();

export const courseInputSchema = z.object({
	externalId: safeId,
	name: nonEmpty,
	url: httpUrl,
	prices: z
		.object({ price: z.array(price).optional() })
		.strict()
		.default({}),
	additionalFields: courseAdditionalFieldsSchema.default({}),
});

export type CourseInput = z.infer<typeof courseInputSchema>;

/** The API body: snake_case, every field the user gave and nothing else. */
export function courseBody(input: CourseInput): IDataObject {
	const extra = input.additionalFields;
	const body: IDataObject = {
		external_id: input.externalId,
		name: input.name,
		url: input.url,
		prices_data: (input.prices.price ?? []).map((p) => ({
			amount: p.amount,
			currency: p.currency,
		})),
	};
	const optional: IDataObject = {
		description: extra.description,
		content_type: extra.contentType,
		course_type: extra.courseType,
		is_private: extra.isPrivate,
		duration_sec: extra.durationSec,
		published_at: extra.publishedAt,
		status: extra.status,
		level: extra.level,
		skills: extra.skills,
		tags: extra.tags,
		image_url: extra.imageUrl || undefined,
		languages_attributes: extra.languages?.language?.map((l) => ({
			language_code: l.languageCode.toLowerCase(),
			title: l.title,
			url: l.url || undefined,
			description: l.description,
		})),
		expiration_date: extra.expirationDate,
		group_ids: extra.groupIds,
		channel_ids: extra.channelIds,
		restricted_group_ids: extra.restrictedGroupIds,
	};
	for (const [key, value] of Object.entries(optional)) {
		if (value !== undefined) body[key] = value;
	}
	return body;
}
