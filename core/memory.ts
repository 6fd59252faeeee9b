/**
 * Gives memory that a start needed, and no longer does, back to the system. Loading code and building
 * the service grow V8's young generation to its largest (64 MB on Node 24) and leave old-generation pages
 * half empty; V8 shrinks them only after the process has sat idle a good while. One memory-reducing
 * collection once the start's work is done returns them at once (about 40 MB a thread on Node 24; Node
 * 20's V8 does not shrink them for it). V8 offers that collection only through its `gc` extension:
 * enabled here (or earlier, by main.ts: see runtime.ts), it is seen by a context of its own alone, never by
 * the service's code.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/** Runs on the calling thread (each worker thread has a heap of its own); blocks it for tens of ms. */
export function releaseUnusedMemory(): void {
  v8.setFlagsFromString('--expose-gc');
  const collect = vm.runInNewContext('gc') as Collect;
  collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
