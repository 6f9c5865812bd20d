/**
 * Edits across crashes for code actions: the daemon is killed at every
 * step of applying an action whose edit comes back by a command, and one
 * whose command fixes every file, of 10 files and at 30 steps of 150
 * (the matrix of crash-edits.test.ts, in a file of its own to run beside it).
 */
import { crashMatrix } from '../helpers/crash-matrix';

crashMatrix((name) => name.startsWith('actions'));
