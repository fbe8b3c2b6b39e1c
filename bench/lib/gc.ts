/* eslint-disable -- benchmark code, not part of the n8n package: the community-node rules do not apply */
import v8 from 'node:v8';
import vm from 'node:vm';

let collect: (() => void) | undefined;

/**
 * A full garbage collection before a measured run, so that one run does not pay for the
 * garbage of the one before (the scripts run under plain `tsx`, without --expose-gc).
 */
export function collectGarbage(): void {
	if (!collect) {
		v8.setFlagsFromString('--expose-gc');
		collect = vm.runInNewContext('gc') as () => void;
	}
	collect();
}
