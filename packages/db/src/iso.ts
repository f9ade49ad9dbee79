/**
 * SQL text rendering a timestamptz column as the API's JSON gives times: ISO 8601 in UTC with
 * milliseconds (`2026-03-01T10:30:00.000Z`), computed by Postgres so a row read as text needs no
 * conversion. `column` is an expression from our code, never from a request.
 */
export const isoText = (column: string): string => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
