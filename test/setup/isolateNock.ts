import nock from 'nock';

// Jest runs many test files in one worker process, each with a fresh module registry: every file
// loads nock anew, and each copy hooks Node's http module again. Unhooking after each file keeps
// one copy active at a time (stacked copies answer requests they do not own).
afterAll(() => {
	nock.cleanAll();
	nock.enableNetConnect();
	nock.restore();
});
