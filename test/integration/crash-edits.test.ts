/**
 * Edits across crashes: the daemon is killed (SIGKILL, as kill -9) at every
 * step of writing a rename, a move and a formatting of 10
 * files, and at 30 steps spread over the same edits of 150 files
 * (LSPQ_TEST_CRASH_AT: the daemon kills itself at its N-th crash point).
 * Every time the tree ends exactly as before or exactly as after the whole
 * edit, nothing of lspq's is left in it, and the command says which:
 * exit 0 with the edit's summary when it was written, exit 3 when it was
 * taken back. The command is never sent twice.
 */
import { crashMatrix } from '../helpers/crash-matrix';

// actions --apply runs in crash-actions.test.ts, apply in crash-apply.test.ts, beside this file.
crashMatrix((name) => !name.startsWith('actions') && name !== 'apply');
