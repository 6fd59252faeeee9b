/**
 * A DNS lookup that answers only addresses already checked: a connection made with it goes to those
 * very addresses, whatever DNS would answer by then, so a second answer cannot swap in an internal one
 * (DNS rebinding).
 */
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';

export function pinnedLookup(addresses: LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const usable = addresses.filter(({ family }) => !options.family || family === options.family);
    const first = usable[0];
    if (!first) {
      callback(Object.assign(new Error('no checked address of the requested family'), { code: 'ENOTFOUND' }), '', 0);
      return;
    }
    if (options.all) (callback as unknown as (error: null, all: LookupAddress[]) => void)(null, usable);
    else callback(null, first.address, first.family);
  };
}
