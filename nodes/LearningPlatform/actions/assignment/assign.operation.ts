import { assignmentOperation, DATES, readDates } from './assignmentFields';

export const { description, prepare, execute } = assignmentOperation('assign', [DATES], readDates);
