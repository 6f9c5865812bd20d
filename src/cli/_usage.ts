/** citty's usage renderer, its own entry point: only --help needs citty's code (src/entries.ts). */
export { renderUsage } from 'citty';
