/* eslint-disable -- test code, not part of the n8n package: the community-node rules do not apply */
// The port picking of the shared loopback helper, where lib/n8n.ts looks for it.
export { freeLoopbackPort } from '../../../harness/loopback';
