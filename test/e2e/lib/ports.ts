// The port picking of the shared loopback helper, where lib/n8n.ts looks for it.
export { freeLoopbackPort } from '../../../harness/loopback';
