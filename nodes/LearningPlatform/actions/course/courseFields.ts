import type { INodeProperties } from 'n8n-workflow';

export const CONTENT_TYPES = [
	{ name: 'Article', value: 'article' },
	{ name: 'Course', value: 'course' },
	{ name: 'Video', value: 'video' },
];

export const COURSE_STATUSES = [
	{ name: 'Active', value: 'active' },
	{ name: 'Archived', value: 'archived' },
];

export const LEVELS = [
	{ name: 'Beginner', value: 'beginner' },
	{ name: 'Intermediate', value: 'intermediate' },
	{ name: 'Advanced', value: 'advanced' },
];

export const CURRENCIES = [
	{ name: 'INR', value: 'INR' },
	{ name: 'USD', value: 'USD' },
];

/** Optional course metadata, as the upsert form shows it. */
export const courseAdditionalFields: INodeProperties[] = [
	{
		displayName: 'Channel IDs',
		name: 'channelIds',
		type: 'string',
		default: '',
		description: 'Comma-separated channel IDs. Channels not listed are removed from the content.',
	},
	{
		displayName: 'Content Type',
		name: 'contentType',
		type: 'options',
		options: CONTENT_TYPES,
		default: 'course',
	},
	{
		displayName: 'Course Type',
		name: 'courseType',
		type: 'options',
		options: CONTENT_TYPES,
		default: 'course',
	},
	{
		displayName: 'Description',
		name: 'description',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
	},
	{
		displayName: 'Duration (Seconds)',
		name: 'durationSec',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
	},
	{
		displayName: 'Expiration Date',
		name: 'expirationDate',
		type: 'string',
		default: '',
		placeholder: '2027-12-31 23:59:59',
		description: 'When the content expires by itself, as YYYY-MM-DD HH:MM:SS',
	},
	{
		displayName: 'Group IDs',
		name: 'groupIds',
		type: 'string',
		default: '',
		description: 'Comma-separated group IDs. Groups not listed are removed from the content.',
	},
	{
		displayName: 'Image URL',
		name: 'imageUrl',
		type: 'string',
		default: '',
		description: 'Linked, not downloaded. A missing or broken image is replaced by a stock image.',
	},
	{
		displayName: 'Is Private',
		name: 'isPrivate',
		type: 'boolean',
		default: false,
		description: 'Whether the content is private',
	},
	{
		displayName: 'Languages',
		name: 'languages',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		description: "Language versions. Send none to use the source's default language.",
		options: [
			{
				displayName: 'Language',
				name: 'language',
				values: [
					{
						displayName: 'Language Code',
						name: 'languageCode',
						type: 'string',
						default: '',
						placeholder: 'en',
						description: 'Two-letter code',
					},
					{ displayName: 'Title', name: 'title', type: 'string', default: '' },
					{ displayName: 'URL', name: 'url', type: 'string', default: '' },
					{ displayName: 'Description', name: 'description', type: 'string', default: '' },
				],
			},
		],
	},
	{ displayName: 'Level', name: 'level', type: 'options', options: LEVELS, default: 'beginner' },
	{
		displayName: 'Published At',
		name: 'publishedAt',
		type: 'string',
		default: '',
		placeholder: '2026-01-31',
		description: 'Publication date as YYYY-MM-DD',
	},
	{
		displayName: 'Restricted Group IDs',
		name: 'restrictedGroupIds',
		type: 'string',
		default: '',
		description: 'Comma-separated IDs of the groups the content is restricted to',
	},
	{
		displayName: 'Skills',
		name: 'skills',
		type: 'string',
		default: '',
		description: 'Comma-separated skills; content is searchable by them',
	},
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		options: COURSE_STATUSES,
		default: 'active',
		description: 'Archived content cannot be made active again',
	},
	{
		displayName: 'Tags',
		name: 'tags',
		type: 'string',
		default: '',
		description: 'Comma-separated tags; content is searchable by them',
	},
];
