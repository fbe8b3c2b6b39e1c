/**
 * The secrets that occur in `text`. Short values are refused: they would match
 * by chance and prove nothing. For HTTP Basic, pass the header value's base64
 * part too: base64 of "user:password" does not contain the password's own.
 */
export function leakedSecrets(text: string, secrets: Iterable<string>): string[] {
	const leaked = new Set<string>();
	for (const secret of secrets) {
		if (secret.length < 8) throw new Error(`"${secret}" is too short to look for`);
		if (text.includes(secret)) leaked.add(secret);
	}
	return [...leaked];
}
