import type { IDataObject } from 'n8n-workflow';

const idsOf = (value: unknown): string[] | undefined =>
	Array.isArray(value)
		? value
				.map((entry) => (entry && typeof entry === 'object' ? (entry as IDataObject).id : entry))
				.filter((id) => id !== undefined && id !== null && id !== '')
				.map(String)
		: undefined;

const dateOnly = (value: unknown): string | undefined =>
	typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : undefined;

/**
 * An update must carry the course's whole metadata (anything left out is cleared, groups and
 * channels not named are removed), so archiving rebuilds it from the catalog entry.
 */
export function archiveBodyFrom(course: IDataObject): IDataObject {
	const images = Array.isArray(course.images) ? (course.images as IDataObject[]) : [];
	const languages = Array.isArray(course.languages)
		? (course.languages as IDataObject[])
		: undefined;
	const candidate: IDataObject = {
		external_id:
			course.external_id ?? (course.additional_metadata as IDataObject | undefined)?.external_id,
		name: course.name,
		url: course.url,
		prices_data: Array.isArray(course.prices_data) ? course.prices_data : [],
		description: course.description ?? undefined,
		content_type: course.content_type,
		course_type: course.course_type,
		is_private: course.is_private,
		duration_sec: course.duration_sec ?? course.duration,
		published_at: dateOnly(course.published_at),
		level: course.level,
		skills: course.skills,
		tags: course.tags,
		image_url: typeof images[0]?.url === 'string' ? images[0].url : undefined,
		languages_attributes: languages?.map((l) => ({
			language_code: l.language_code,
			title: l.title,
			url: l.url,
			description: l.description,
		})),
		expiration_date: course.expiration_date,
		group_ids: idsOf(course.groups),
		channel_ids: idsOf(course.channels),
		restricted_group_ids: idsOf(course.restricted_groups),
		status: 'archived',
	};
	const body: IDataObject = {};
	for (const [key, value] of Object.entries(candidate)) {
		if (value !== undefined && value !== null) body[key] = value;
	}
	return body;
}
