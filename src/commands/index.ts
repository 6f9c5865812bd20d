/** The `commands` bundle's entry (src/bundles.ts): the road, and its end in the command's own process. */
export { runCommandLine } from './road';
export { runBatchHere, runHere } from './here';
export type { Host } from './context';
