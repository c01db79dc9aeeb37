// Shape checks for parsed state JSON (parsePyJson output). Added by apps engineer #2.

/** A JSON object (not null, not an array). */
export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
