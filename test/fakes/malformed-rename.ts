/** prepareRename answered well and the rename's edit of the wrong shape, so that edit is read (malformed.ts). */
import { serveMalformed } from './malformed';

serveMalformed({ prepareOk: true });
