/**
 * A patch across crashes: lspq apply of a patch of 10 files, checked in
 * memory, then the daemon killed (SIGKILL, as kill -9) at every step of
 * writing it: the tree ends exactly as before or exactly as after, nothing
 * of lspq's left in it, the command says which and is never sent twice
 * (the matrix of crash-edits.test.ts, in a file of its own to run beside it).
 */
import { crashMatrix } from '../helpers/crash-matrix';

crashMatrix((name) => name === 'apply');
