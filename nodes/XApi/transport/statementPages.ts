import { type IDataObject, NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import type { PagingLimits } from '../../shared/pacing/paging';
import {
	DEFAULT_PAGING_LIMITS,
	PageGuard,
	PagingError,
	withinBounds,
} from '../../shared/pacing/paging';
import { type LrsRequest, type LrsRun, tryLrsRequest } from './index';

export class LinkGuard {
	private readonly followed = new Set<string>();

	constructor(private readonly what: string) {}

	follow(link: string): void {
		if (this.followed.has(link)) {
			throw new PagingError(
				`${this.what} stopped: the server sent a "more" link it had sent before`,
				'Following it again would read the same statements forever. Nothing was emitted twice.',
			);
		}
		this.followed.add(link);
	}
}

/** Asked for per page; stores may send fewer and a `more` link. */
export const STATEMENTS_PER_PAGE = 100;

/** GET /statements without an id: a StatementResult (xAPI Communication 2.1). */
const statementResultShape = z
	.object({
		statements: z.array(z.record(z.string(), z.unknown())),
		more: z.string().optional(),
	})
	.passthrough();

// xAPI makes `more` host-relative; some stores send it absolute or relative to the endpoint.
// Links to another host are refused: the request would carry the credentials.
function resolveMoreLink(endpoint: string, more: string): string | undefined {
	const base = new URL(`${endpoint}/`);
	if (!URL.canParse(more, base.href)) return undefined;
	const target = new URL(more, base);
	return target.origin === base.origin ? target.toString() : undefined;
}

/** Guarded so a store cannot keep the walk going forever or emit a statement twice. */
export async function forEachStatementPage(
	run: LrsRun,
	walk: Pick<LrsRequest, 'qs' | 'action' | 'itemIndex' | 'deadline'> & { limits?: PagingLimits },
	visit: (statements: IDataObject[], headers: Record<string, unknown>) => boolean,
): Promise<void> {
	const { action, itemIndex } = walk;
	const pages = new PageGuard(action, walk.limits ?? DEFAULT_PAGING_LIMITS);
	const links = new LinkGuard(action);
	let url: string | undefined;
	const guarded = <T>(check: () => T): T => withinBounds(run.fns.getNode(), itemIndex, check);
	for (;;) {
		guarded(() => pages.next());
		const outcome = await tryLrsRequest(run, {
			method: 'GET',
			...(url ? { url } : { qs: walk.qs }),
			action,
			itemIndex,
			deadline: walk.deadline,
			answer: { schema: statementResultShape, is: 'a StatementResult' },
		});
		if (!outcome.ok) throw outcome.error;
		const page = outcome.body as z.infer<typeof statementResultShape>;
		const statements = page.statements as IDataObject[];
		const more = page.more?.trim() ?? '';
		const nextUrl = more && statements.length > 0 ? resolveMoreLink(run.endpoint, more) : undefined;
		const fresh = guarded(() => {
			pages.read(outcome.bytes, page);
			const admitted = pages.admit(
				statements.map(({ id }) => (typeof id === 'string' ? id.toLowerCase() : undefined)),
			);
			if (nextUrl) links.follow(nextUrl);
			return statements.filter((_, i) => admitted[i]);
		});
		if (!visit(fresh, outcome.headers) || !more || statements.length === 0) return;
		if (!nextUrl) {
			throw new NodeOperationError(
				run.fns.getNode(),
				`The record store sent a "more" link that is not on its own host: ${run.redactor.text(more)}`,
				{
					itemIndex,
					description: 'It was not followed, so that the credentials stay with the record store.',
				},
			);
		}
		url = nextUrl;
	}
}
