/** A UTC timestamp in the one form the API answers with: ISO 8601, milliseconds, `Z`. */
export function toUtcIso(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new RangeError(`${value} is not a timestamp`);
  return date.toISOString();
}
