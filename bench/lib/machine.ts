/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
import os from 'node:os';

export interface MachineInfo {
	cpu: string;
	cores: number;
	memoryGiB: number;
	node: string;
	platform: string;
	/** One-minute load average when the run started: other work on the machine skews timings. */
	loadAverage: number;
}

export function machineInfo(): MachineInfo {
	const cpus = os.cpus();
	return {
		cpu: cpus[0]?.model ?? 'unknown',
		cores: cpus.length,
		memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
		node: process.version,
		platform: `${os.type()} ${os.release()} ${os.arch()}`,
		loadAverage: Math.round(os.loadavg()[0] * 100) / 100,
	};
}

export function describeMachine(machine: MachineInfo): string {
	return `${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${machine.node}, ${machine.platform} (load average ${machine.loadAverage} at start)`;
}
