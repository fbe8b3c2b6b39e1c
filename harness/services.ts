/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
/**
 * Throw-away Redis and Postgres on loopback for n8n's queue mode, from Debian's packages
 * (scripts/install-queue-deps.sh). Postgres refuses to run as root, so initdb and pg_ctl run as
 * the `postgres` user (runuser) when this runs as root.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { freeLoopbackPort } from './loopback';
import { waitForOutput } from './processes';
import { register, runSync, spawnRegistered } from './cleanup';

export interface Redis {
	host: string;
	port: number;
	stop(): Promise<void>;
}

function which(program: string): string | undefined {
	for (const dir of (process.env.PATH ?? '')
		.split(':')
		.concat(['/usr/bin', '/usr/sbin', '/usr/local/bin'])) {
		const candidate = path.join(dir, program);
		if (dir && fs.existsSync(candidate)) return candidate;
	}
	return undefined;
}

const INSTALL_HINT = 'run scripts/install-queue-deps.sh first';

export async function startRedis(): Promise<Redis> {
	const binary = which('redis-server');
	if (!binary) throw new Error(`redis-server not found: ${INSTALL_HINT}`);
	const port = await freeLoopbackPort();
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-queue-redis-'));
	const redis = spawnRegistered(
		'redis',
		binary,
		[...`--port ${port} --bind 127.0.0.1 --appendonly no --save`.split(' '), '', '--dir', dir],
		{
			env: process.env,
			afterStop: () => fs.rmSync(dir, { recursive: true, force: true }),
		},
	);
	await waitForOutput(redis, redis.stdout, /Ready to accept connections/, 30_000);
	return {
		host: '127.0.0.1',
		port,
		stop: () => redis.stop(),
	};
}

export interface Postgres {
	host: string;
	port: number;
	user: string;
	database: string;
	/** Runs one statement with psql; returns its unaligned, tuples-only output. */
	query(sql: string): Promise<string>;
	stop(): Promise<void>;
}

/** The newest Postgres server binaries Debian installed (/usr/lib/postgresql/<major>/bin). */
function postgresBinDir(): string {
	const root = '/usr/lib/postgresql';
	const majors = fs.existsSync(root)
		? fs.readdirSync(root).filter((name) => fs.existsSync(path.join(root, name, 'bin', 'initdb')))
		: [];
	majors.sort((a, b) => Number(b) - Number(a));
	if (majors.length > 0) return path.join(root, majors[0], 'bin');
	const initdb = which('initdb');
	if (initdb) return path.dirname(fs.realpathSync(initdb));
	throw new Error(`Postgres (initdb) not found: ${INSTALL_HINT}`);
}

/** As root: the command as the postgres user (the server refuses root). Otherwise as is. */
function asPostgres(command: string, args: string[]): [string, string[]] {
	if (process.getuid?.() !== 0) return [command, args];
	return ['runuser', ['-u', 'postgres', '--', command, ...args]];
}

function postgresUid(): { uid: number; gid: number } | undefined {
	if (process.getuid?.() !== 0) return undefined;
	const uid = runSync('id', ['-u', 'postgres']);
	const gid = runSync('id', ['-g', 'postgres']);
	if (uid.status !== 0) throw new Error(`No postgres user on this machine: ${INSTALL_HINT}`);
	return { uid: Number(uid.output.trim()), gid: Number(gid.output.trim()) };
}

export async function startPostgres(): Promise<Postgres> {
	const bin = postgresBinDir();
	const psql = which('psql') ?? path.join(bin, 'psql');
	const port = await freeLoopbackPort();
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-queue-pg-'));
	const owner = postgresUid();
	if (owner) fs.chownSync(root, owner.uid, owner.gid);
	const dataDir = path.join(root, 'data');
	const logFile = path.join(root, 'server.log');
	const run = (command: string, args: string[]) => {
		const [program, programArgs] = asPostgres(path.join(bin, command), args);
		return runSync(program, programArgs);
	};
	const init = run('initdb', [
		...'-A trust -U postgres -E UTF8 --locale=C --no-sync -D'.split(' '),
		dataDir,
	]);
	if (init.status !== 0) throw new Error(`initdb failed:\n${init.output}`);
	// Loopback only, its socket in the temp folder; durability off (a throw-away database).
	const serverOptions = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=100`;
	const stopServer = (mode: 'fast' | 'immediate') =>
		run('pg_ctl', ['-D', dataDir, '-m', mode, '-w', '-t', '30', 'stop']);
	const removeDir = () => fs.rmSync(root, { recursive: true, force: true });
	const unregister = register({
		name: 'postgres',
		stop: async () => {
			stopServer('fast');
			removeDir();
		},
		kill: () => {
			stopServer('immediate');
			removeDir();
		},
	});
	const start = run('pg_ctl', [
		'-D',
		dataDir,
		'-l',
		logFile,
		'-o',
		serverOptions,
		'-w',
		'-t',
		'60',
		'start',
	]);
	if (start.status !== 0) {
		const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
		throw new Error(`pg_ctl start failed:\n${start.output}\n${log}`);
	}
	const psqlOptions =
		`-h 127.0.0.1 -p ${port} -U postgres -d postgres -X -A -t -q -v ON_ERROR_STOP=1`.split(' ');
	const query = (sql: string) =>
		new Promise<string>((resolve, reject) => {
			execFile(
				psql,
				[...psqlOptions, '-c', sql],
				{ maxBuffer: 512 * 1024 * 1024 },
				(error, stdout, stderr) => {
					if (error) reject(new Error(`psql: ${stderr || error.message}`));
					else resolve(stdout);
				},
			);
		});
	return {
		host: '127.0.0.1',
		port,
		user: 'postgres',
		database: 'postgres',
		query,
		stop: async () => {
			stopServer('fast');
			removeDir();
			unregister();
		},
	};
}
