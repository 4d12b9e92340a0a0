/** Runs the context probe's checks with the given copies of the two packages (any copy: src or dist); a report. */
export function probe(S: unknown, G: unknown): Promise<any>
