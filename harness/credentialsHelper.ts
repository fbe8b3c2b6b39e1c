import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	Workflow,
} from 'n8n-workflow';
import { ICredentialsHelper } from 'n8n-workflow';
import { Credentials } from 'n8n-core';

import type { HarnessCredentialTypes } from './nodeTypes';

/**
 * Does what n8n's server does with credentials: hands nodes the stored data, calls a credential's
 * preAuthentication when its expirable field is empty or after a 401, saves what it returns
 * (so the next request and the next execution reuse it), and applies `authenticate`.
 */
export class HarnessCredentialsHelper extends ICredentialsHelper {
	/** What n8n would keep in its database, by credential type. */
	readonly store: Record<string, ICredentialDataDecryptedObject>;

	readonly preAuthenticationCalls: string[] = [];

	constructor(
		private readonly types: HarnessCredentialTypes,
		store: Record<string, ICredentialDataDecryptedObject>,
	) {
		super();
		this.store = store;
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.types.getByName(type).properties;
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const stored = this.store[type];
		if (!stored) throw new Error(`No credentials of type ${type} in the harness`);
		const defaults: ICredentialDataDecryptedObject = {};
		for (const property of this.types.getByName(type).properties) {
			if (property.type !== 'notice') defaults[property.name] = property.default as never;
		}
		return { ...defaults, ...stored };
	}

	async getCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentials> {
		return new Credentials({ id: nodeCredentials.id, name: nodeCredentials.name }, type, '');
	}

	async updateCredentials(
		_details: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.store[type] = { ...this.store[type], ...data };
	}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.types.getByName(typeName);
		if (typeof type.preAuthentication !== 'function') return undefined;
		this.preAuthenticationCalls.push(typeName);
		return (await type.preAuthentication.call(
			helpers,
			credentials,
		)) as ICredentialDataDecryptedObject;
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.types.getByName(typeName);
		const expirable = type.properties.find(
			(p) => p.type === 'hidden' && p.typeOptions?.expirable === true,
		);
		if (!expirable || typeof type.preAuthentication !== 'function') return undefined;
		if (
			credentials[expirable.name] !== '' &&
			credentials[expirable.name] !== undefined &&
			!credentialsExpired
		) {
			return undefined;
		}
		const output = await this.runPreAuthentication(helpers, credentials, typeName);
		// As n8n's CredentialsHelper: an answer without the expirable property saves nothing.
		if (!output || output[expirable.name] === undefined) return undefined;
		const details = node.credentials?.[typeName];
		if (details) await this.updateCredentials(details, typeName, output);
		return Object.assign(credentials, output);
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		incoming: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const requestOptions = incoming as IHttpRequestOptions;
		const auth = this.types.getByName(typeName).authenticate;
		if (typeof auth === 'function') return await auth(credentials, requestOptions);
		if (!auth || auth.type !== 'generic') return requestOptions;
		const resolve = (value: unknown) =>
			typeof value === 'string' && value.startsWith('=') && workflow && node
				? workflow.expression.getSimpleParameterValue(
						node,
						value,
						'internal',
						{ $credentials: credentials },
						undefined,
						'',
					)
				: value;
		const target = requestOptions as unknown as Record<string, Record<string, unknown>>;
		for (const [outer, values] of Object.entries(auth.properties)) {
			target[outer] = { ...(target[outer] ?? {}) };
			for (const [key, value] of Object.entries(values as Record<string, unknown>)) {
				target[outer][String(resolve(key))] = resolve(value);
			}
		}
		return requestOptions;
	}
}
