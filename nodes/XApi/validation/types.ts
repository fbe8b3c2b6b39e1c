/** The shape of a valid xAPI 1.0.3 statement (xAPI-Data 2.4), as the validator returns it. */

export type LanguageMap = Record<string, string>;

/** Extension values may be any JSON value, null included (xAPI-Data 4.1). */
export type Extensions = Record<string, unknown>;

export interface Account {
	homePage: string;
	name: string;
}

/** Exactly one of mbox, mbox_sha1sum, openid or account is present. */
export interface InverseFunctionalIdentifier {
	mbox?: string;
	mbox_sha1sum?: string;
	openid?: string;
	account?: Account;
}

export interface Agent extends InverseFunctionalIdentifier {
	objectType?: 'Agent';
	name?: string;
}

/** Anonymous (no identifier, members required) or identified (one identifier). */
export interface Group extends InverseFunctionalIdentifier {
	objectType: 'Group';
	name?: string;
	member?: Agent[];
}

export type Actor = Agent | Group;

export interface Verb {
	id: string;
	display?: LanguageMap;
}

export type InteractionType =
	| 'true-false'
	| 'choice'
	| 'fill-in'
	| 'long-fill-in'
	| 'matching'
	| 'performance'
	| 'sequencing'
	| 'likert'
	| 'numeric'
	| 'other';

export interface InteractionComponent {
	id: string;
	description?: LanguageMap;
}

export interface ActivityDefinition {
	name?: LanguageMap;
	description?: LanguageMap;
	type?: string;
	moreInfo?: string;
	interactionType?: InteractionType;
	correctResponsesPattern?: string[];
	choices?: InteractionComponent[];
	scale?: InteractionComponent[];
	source?: InteractionComponent[];
	target?: InteractionComponent[];
	steps?: InteractionComponent[];
	extensions?: Extensions;
}

export interface Activity {
	objectType?: 'Activity';
	id: string;
	definition?: ActivityDefinition;
}

export interface StatementRef {
	objectType: 'StatementRef';
	id: string;
}

export interface Score {
	scaled?: number;
	raw?: number;
	min?: number;
	max?: number;
}

export interface Result {
	score?: Score;
	success?: boolean;
	completion?: boolean;
	response?: string;
	duration?: string;
	extensions?: Extensions;
}

/** Single Activities are accepted as well as lists (xAPI-Data 2.4.6.2). */
export type ContextActivityList = Activity | Activity[];

export interface ContextActivities {
	parent?: ContextActivityList;
	grouping?: ContextActivityList;
	category?: ContextActivityList;
	other?: ContextActivityList;
}

export interface Context {
	registration?: string;
	instructor?: Actor;
	team?: Group;
	contextActivities?: ContextActivities;
	revision?: string;
	platform?: string;
	language?: string;
	statement?: StatementRef;
	extensions?: Extensions;
}

export interface Attachment {
	usageType: string;
	display: LanguageMap;
	description?: LanguageMap;
	contentType: string;
	length: number;
	sha2: string;
	fileUrl?: string;
}

/** Properties shared by statements and SubStatements. */
interface StatementCore {
	actor: Actor;
	verb: Verb;
	result?: Result;
	context?: Context;
	timestamp?: string;
	attachments?: Attachment[];
}

export interface SubStatement extends StatementCore {
	objectType: 'SubStatement';
	object: Activity | Agent | Group | StatementRef;
}

export interface Statement extends StatementCore {
	id?: string;
	object: Activity | Agent | Group | StatementRef | SubStatement;
	stored?: string;
	authority?: Actor;
	version?: string;
}
