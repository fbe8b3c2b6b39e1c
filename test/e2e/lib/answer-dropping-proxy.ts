import { forward, listenOnLoopback, readBody } from '../../../harness/loopback';

export interface AnswerDroppingProxy {
	/** `http://127.0.0.1:PORT`, no trailing slash. */
	origin: string;
	/** How many answers it has dropped so far. */
	dropped(): number;
	close(): Promise<void>;
}

export interface AnswerDroppingProxyOptions {
	/** Where requests go, e.g. a recording proxy's origin. */
	target: string;
	/** Which requests lose their answer: decided per request, in arrival order. */
	shouldDrop(request: { method: string; url: string }, index: number): boolean;
}

/**
 * A loopback proxy that forwards every request and, for the chosen ones,
 * closes the client's connection once the target HAS answered, without passing
 * the answer on: the write happened, but the client cannot know it. This is
 * the case a client that repeats requests must not turn into a duplicate.
 */
export async function startAnswerDroppingProxy(
	options: AnswerDroppingProxyOptions,
): Promise<AnswerDroppingProxy> {
	const target = new URL(options.target);
	let seen = 0;
	let dropped = 0;
	const server = await listenOnLoopback((request, response) => {
		const index = seen++;
		// A proxy forwards the whole body.
		readBody(request, Infinity).then(
			(body) => {
				const drop = options.shouldDrop(
					{ method: request.method ?? '', url: request.url ?? '' },
					index,
				);
				forward(request, body, target).then(
					(upstreamResponse) => {
						if (drop) {
							// Read the whole answer first, so the target has surely finished.
							upstreamResponse.resume();
							upstreamResponse.on('end', () => {
								dropped++;
								request.socket.destroy();
							});
							return;
						}
						response.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers);
						upstreamResponse.pipe(response);
					},
					(error) => {
						response.writeHead(502, { 'content-type': 'text/plain' }).end(String(error));
					},
				);
			},
			() => {
				// The client went away mid-body: nothing to forward.
			},
		);
	});
	return { origin: server.url, dropped: () => dropped, close: server.close };
}
