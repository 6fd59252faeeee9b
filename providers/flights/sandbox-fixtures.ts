/** The native offers a sandbox serves: the fixtures of its provider, not their golden normalized copies. */
import fs from 'node:fs';

export function nativeFixtures<T>(directory: URL): T[] {
  return fs
    .readdirSync(directory)
    .filter((file) => file.endsWith('.json') && !file.endsWith('.offer.json'))
    .map((file) => JSON.parse(fs.readFileSync(new URL(file, directory), 'utf8')) as T);
}
