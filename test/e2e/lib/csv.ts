
/**
 * Rows of a CSV file with a header line, as objects keyed by column name
 * (RFC 4180: quoted cells may hold commas, line breaks and doubled quotes).
 * Written here so that expectations do not come from the code under test.
 */
export function parseCsv(text: string): Array<Record<string, string>> {
	const records: string[][] = [];
	let record: string[] = [];
	let cell = '';
	let quoted = false;
	for (let i = 0; i < text.length; i++) {
		const char = text[i];
		if (quoted) {
			if (char === '"' && text[i + 1] === '"') {
				cell += '"';
				i++;
			} else if (char === '"') quoted = false;
			else cell += char;
		} else if (char === '"') quoted = true;
		else if (char === ',') {
			record.push(cell);
			cell = '';
		} else if (char === '\n' || char === '\r') {
			if (char === '\r' && text[i + 1] === '\n') i++;
			record.push(cell);
			records.push(record);
			record = [];
			cell = '';
		} else cell += char;
	}
	if (cell !== '' || record.length > 0) records.push([...record, cell]);
	const [header, ...rows] = records.filter((row) => row.some((value) => value !== ''));
	return rows.map((row) => Object.fromEntries(header.map((name, index) => [name, row[index] ?? ''])));
}
