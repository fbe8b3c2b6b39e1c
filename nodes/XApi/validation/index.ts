export { formatIssues, formatPath, type ValidationIssue } from './issues';
export type * from './types';
export { validateStatement, type StatementValidation } from './validateStatement';
