// The runner process waits on containers nearly all the time: its own CPU is a few percent of a
// run's, its memory is what limits how many runs one machine holds. V8's default heap policy
// lets garbage from finished runs pile up (a major GC only every ~40 MB of promotions); with
// --optimize-for-size it collects sooner and keeps a smaller young generation: the peak RSS of
// a 32-way run drops from ~150 to ~115 MB (bench/orchestrator.mjs). Set at start-up, before
// the first run allocates; V8 reads it when it next sizes the heap.
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--optimize-for-size');
