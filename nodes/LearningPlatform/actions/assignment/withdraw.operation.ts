import { assignmentOperation } from './assignmentFields';

export const { description, prepare, execute } = assignmentOperation('withdraw');
