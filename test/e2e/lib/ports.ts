/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
import * as net from 'node:net';

/**
 * A loopback port that was free a moment ago, for programs that cannot listen
 * on port 0 and report what they got.
 */
export async function freeLoopbackPort(): Promise<number> {
	const server = net.createServer();
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', resolve);
	});
	const { port } = server.address() as net.AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}
