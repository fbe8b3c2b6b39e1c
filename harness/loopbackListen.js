// Preloaded (`node -r`) into the Learning Record Store process. That service
// calls `app.listen(port)`, which binds every interface and, given port 0,
// never says which port it got. This makes every listen bind 127.0.0.1 only
// and prints the port actually bound as one line the test harness waits for.
'use strict';
const net = require('node:net');

const originalListen = net.Server.prototype.listen;

net.Server.prototype.listen = function listenOnLoopback(...args) {
	const [first] = args;
	if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
		const callback = args.find((arg) => typeof arg === 'function');
		const server = originalListen.call(this, { port: Number(first), host: '127.0.0.1' }, callback);
		server.once('listening', () => {
			const address = server.address();
			process.stdout.write(`LOOPBACK_LISTENING ${JSON.stringify({ port: address.port })}\n`);
		});
		return server;
	}
	return originalListen.apply(this, args);
};
