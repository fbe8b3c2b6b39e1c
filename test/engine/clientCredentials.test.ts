import nock from 'nock';
import { BASE_URL, CLIENT_SECRET, lmsCredentials, isolateNetwork } from '../helpers/lms';
import { runNode } from '../helpers/workflows';

// Issue 52 item 7: the token request keeps the item's Timeout, 429 waits included.
const upsert = {
	resource: 'course',
	operation: 'upsert',
	externalId: 'c-deadline',
	name: 'Course',
	url: 'https://learn.test/c',
	options: { waitForCompletion: false },
};

isolateNetwork();

test('a token endpoint asking to wait past the Timeout fails the item without waiting or asking again', async () => {
	const credentials = lmsCredentials({ requestTimeout: 2 });
	let tokenCalls = 0;
	nock(BASE_URL)
		.post('/api/oauth/token')
		.query(true)
		.times(5)
		.reply(() => {
			tokenCalls++;
			return [429, { message: 'Too many requests' }, { 'Retry-After': '120' }];
		});

	const run = await runNode({ parameters: upsert, credentials, continueOnFail: true });

	expect(run.items[0].json.error).toMatch(/access token/i);
	expect(JSON.stringify(run.run.data)).not.toContain(CLIENT_SECRET);
	// One token call: a second would have come after the 120 s the endpoint asked for.
	expect(tokenCalls).toBe(1);
	nock.cleanAll();
});
