/** Content created through the API, keyed by external_id, and its shape in the list endpoint. */

import { randomUUID } from 'crypto';
import type { CourseMetadata, GroupId } from './courseInput';
import type { TransactionOutcome } from './transactions';

export interface StoredCourse extends CourseMetadata {
	/** A UUID, given when the content is created and kept by its updates. */
	id: string;
	/** Equal to id, as in the documents' samples. */
	ecl_id: string;
	created_at: string;
	updated_at: string;
}

/** The one source that all API-created content of this sandbox belongs to. */
export const SANDBOX_SOURCE = Object.freeze({
	source_id: 'a3c6f2d0-5b1e-4c7a-9f3e-2d8b7c6a5e41',
	ecl_source_id: 'e1f0d2c3-4b5a-4968-8776-655443322110',
	organization_id: 1,
});

export class CourseStore {
	/** Map iteration keeps insertion order, which is the list's creation order. */
	private readonly byExternalId = new Map<string, StoredCourse>();
	private readonly writesApplied = new Map<string, number>();

	get(externalId: string): StoredCourse | undefined {
		return this.byExternalId.get(externalId);
	}

	/** Applies an accepted upsert when its transaction completes. */
	apply(metadata: CourseMetadata, now: number): TransactionOutcome {
		const existing = this.byExternalId.get(metadata.external_id);
		const timestamp = new Date(now).toISOString();
		if (existing && existing.status === 'archived' && metadata.status === 'active') {
			return { ok: false, message: 'Archived content cannot be made active again' };
		}
		this.countWrite(metadata.external_id);
		if (existing) {
			this.byExternalId.set(metadata.external_id, {
				...metadata,
				id: existing.id,
				ecl_id: existing.ecl_id,
				created_at: existing.created_at,
				updated_at: timestamp,
			});
			return { ok: true, message: 'Content updated' };
		}
		const id = randomUUID();
		this.byExternalId.set(metadata.external_id, {
			...metadata,
			id,
			ecl_id: id,
			created_at: timestamp,
			updated_at: timestamp,
		});
		return { ok: true, message: 'Content created' };
	}

	page(offset: number, limit: number): StoredCourse[] {
		return Array.from(this.byExternalId.values()).slice(offset, offset + limit);
	}

	get count(): number {
		return this.byExternalId.size;
	}

	snapshot(): {
		courses: Record<string, StoredCourse>;
		writesAppliedByExternalId: Record<string, number>;
	} {
		return {
			courses: structuredClone(Object.fromEntries(this.byExternalId)),
			writesAppliedByExternalId: Object.fromEntries(this.writesApplied),
		};
	}

	clear(): void {
		this.byExternalId.clear();
		this.writesApplied.clear();
	}

	private countWrite(externalId: string): void {
		this.writesApplied.set(externalId, (this.writesApplied.get(externalId) ?? 0) + 1);
	}
}

/**
 * The documents do not give the entries of restricted_groups[], groups[] and channels[]:
 * the sandbox lists each id the content was written with as `{id, name}`, the id exactly as
 * it was sent (number or string) and a name made from it.
 */
function toRefs(ids: GroupId[], label: string): Array<{ id: GroupId; name: string }> {
	return ids.map((id) => ({ id, name: `${label} ${id}` }));
}

/** ISO 8601 timestamp of the stored YYYY-MM-DD: that day at midnight UTC. */
function publishedTimestamp(date: string | null): string | null {
	return date === null ? null : `${date}T00:00:00.000Z`;
}

/**
 * One entry of GET courses.json: exactly the documented fields ("Content - list item"), in the
 * documents' order, and nothing else, whatever else the sandbox stores (status, level,
 * languages, ... stay in state() only). A value the content was written without is null ([]
 * for the lists).
 */
export function toListItem(course: StoredCourse): Record<string, unknown> {
	return {
		id: course.id,
		name: course.name,
		description: course.description,
		images: course.image_url ? [{ url: course.image_url }] : [],
		url: course.url,
		external_id: course.external_id,
		additional_metadata: { duration: course.duration_sec, external_id: course.external_id },
		source_id: SANDBOX_SOURCE.source_id,
		organization_id: SANDBOX_SOURCE.organization_id,
		tags: [...course.tags],
		published_at: publishedTimestamp(course.published_at),
		duration: course.duration_sec,
		duration_sec: course.duration_sec,
		restricted_groups: toRefs(course.restricted_group_ids, 'Restricted group'),
		groups: toRefs(course.group_ids, 'Group'),
		channels: toRefs(course.channel_ids, 'Channel'),
		ecl_id: course.ecl_id,
		is_private: course.is_private,
		prices_data: course.prices_data.map((price) => ({ ...price })),
		ecl_source_id: SANDBOX_SOURCE.ecl_source_id,
	};
}
