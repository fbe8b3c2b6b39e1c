/**
 * Reads a CSV file's text into records keyed by the header row (RFC 4180: quoted cells may hold
 * commas, line breaks and doubled quotes). The demo and the end-to-end suite read the catalog
 * with this, independently of the workflow's Extract from File node, so that what they expect
 * does not come from the code under test.
 */
export function parseCsv(text: string): Array<Record<string, string>> {
	const rows: string[][] = [];
	let row: string[] = [];
	let field = '';
	let quoted = false;
	for (let i = 0; i < text.length; i++) {
		const char = text[i];
		if (quoted) {
			if (char === '"' && text[i + 1] === '"') {
				field += '"';
				i++;
			} else if (char === '"') quoted = false;
			else field += char;
		} else if (char === '"') quoted = true;
		else if (char === ',') {
			row.push(field);
			field = '';
		} else if (char === '\n' || char === '\r') {
			if (char === '\r' && text[i + 1] === '\n') i++;
			row.push(field);
			rows.push(row);
			row = [];
			field = '';
		} else field += char;
	}
	if (field !== '' || row.length > 0) rows.push([...row, field]);
	const [header, ...records] = rows.filter((r) => r.some((value) => value !== ''));
	return records.map((values) =>
		Object.fromEntries(header.map((name, index) => [name, values[index] ?? ''])),
	);
}

/** "a, b,c" → ["a", "b", "c"], as the node reads comma-separated list fields. */
export function listOf(value: string): string[] {
	return value
		.split(',')
		.map((entry) => entry.trim())
		.filter(Boolean);
}
