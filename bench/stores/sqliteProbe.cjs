// Run by n8n's own Node with n8n's own sqlite3 (bench/benchmarks/stores.ts): stores one roster
// memory the way each candidate is stored in n8n's SQLite database, and reports bytes on disk
// and the time of one save. Input on stdin: { sqlite3, file, staticData, pairs: [[key, fp]] }.
const fs = require('node:fs');
const crypto = require('node:crypto');
const input = JSON.parse(fs.readFileSync(0, 'utf8'));
const sqlite3 = require(input.sqlite3);

function open(file) {
	fs.rmSync(file, { force: true });
	const db = new sqlite3.Database(file);
	const run = (sql, params = []) =>
		new Promise((ok, no) => db.run(sql, params, (e) => (e ? no(e) : ok())));
	const get = (sql, params = []) =>
		new Promise((ok, no) => db.get(sql, params, (e, r) => (e ? no(e) : ok(r))));
	return { db, run, get };
}

async function bytesOf(name, schema, fill) {
	const file = `${input.file}.${name}`;
	const { db, run, get } = open(file);
	await run('PRAGMA journal_mode = WAL');
	for (const sql of schema) await run(sql);
	await run('VACUUM');
	const empty =
		(await get('PRAGMA page_count')).page_count * (await get('PRAGMA page_size')).page_size;
	const timing = await fill(run, get);
	await run('VACUUM');
	const full =
		(await get('PRAGMA page_count')).page_count * (await get('PRAGMA page_size')).page_size;
	await new Promise((ok) => db.close(ok));
	for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
	return { bytes: full - empty, ...timing };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function timeIt(times, body) {
	const taken = [];
	for (let n = 0; n < times; n++) {
		const started = process.hrtime.bigint();
		await body(n);
		taken.push(Number(process.hrtime.bigint() - started) / 1e6);
	}
	return median(taken);
}

async function main() {
	const pairs = input.pairs;
	const staticJson = JSON.stringify(input.staticData);
	// workflow_entity.staticData: the whole workflow's static data, one TEXT value, written at the end of a production run.
	const staticData = await bytesOf(
		'static',
		['CREATE TABLE workflow_entity (id VARCHAR(36) PRIMARY KEY, staticData TEXT)'],
		async (run) => {
			await run('INSERT INTO workflow_entity VALUES (?, ?)', ['wf', staticJson]);
			const saveMs = await timeIt(5, () =>
				run('UPDATE workflow_entity SET staticData = ? WHERE id = ?', [staticJson, 'wf']),
			);
			return { saveMs };
		},
	);
	// processed_data: one row per workflow and context; value {mode:'entries', data:[md5 base64 of each item]}.
	// Each record call reads the row, parses it, appends and writes the whole row back.
	const hashes = pairs.map(([key, fp]) =>
		crypto.createHash('md5').update(`${key} ${fp}`).digest('base64'),
	);
	const processed = await bytesOf(
		'processed',
		[
			'CREATE TABLE processed_data (workflowId VARCHAR(36), context VARCHAR(255), createdAt DATETIME, updatedAt DATETIME, value TEXT, PRIMARY KEY (workflowId, context))',
		],
		async (run, get) => {
			await run("INSERT INTO processed_data VALUES ('wf', 'n:node', datetime(), datetime(), ?)", [
				JSON.stringify({ mode: 'entries', data: hashes.slice(0, -100) }),
			]);
			const recordMs = await timeIt(5, async (n) => {
				const row = await get(
					"SELECT value FROM processed_data WHERE workflowId = 'wf' AND context = 'n:node'",
				);
				const value = JSON.parse(row.value);
				const seen = new Set(value.data);
				for (const hash of hashes.slice(-100 + n * 20, -80 + n * 20 || undefined))
					if (!seen.has(hash)) value.data.push(hash);
				await run(
					"UPDATE processed_data SET value = ?, updatedAt = datetime() WHERE workflowId = 'wf' AND context = 'n:node'",
					[JSON.stringify(value)],
				);
			});
			return {
				recordMs,
				rowBytes: Buffer.byteLength(JSON.stringify({ mode: 'entries', data: hashes })),
			};
		},
	);
	// A data table: n8n's table data_table_user_<id> (id, createdAt, updatedAt, user columns), one row per pair.
	const dataTable = await bytesOf(
		'datatable',
		[
			'CREATE TABLE data_table_user_x (id INTEGER PRIMARY KEY AUTOINCREMENT, createdAt DATETIME NOT NULL, updatedAt DATETIME NOT NULL, learner TEXT, course TEXT, fingerprint TEXT)',
		],
		async (run) => {
			await run('BEGIN');
			for (const [key, fp] of pairs) {
				const [learner, course] = key.split('\u0000');
				await run(
					'INSERT INTO data_table_user_x (createdAt, updatedAt, learner, course, fingerprint) VALUES (datetime(), datetime(), ?, ?, ?)',
					[learner, course, fp],
				);
			}
			await run('COMMIT');
			const updateMs = await timeIt(5, (n) =>
				run(
					'UPDATE data_table_user_x SET fingerprint = ?, updatedAt = datetime() WHERE learner = ? AND course = ?',
					['x', ...pairs[n * 1000][0].split('\u0000')],
				),
			);
			return { updateMs };
		},
	);
	process.stdout.write(JSON.stringify({ staticData, processed, dataTable }));
}

main().catch((error) => {
	process.stderr.write(String(error && error.stack));
	process.exit(1);
});
