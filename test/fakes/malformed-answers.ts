/** Every answer and notification of the wrong shape (malformed.ts). */
import { serveMalformed } from './malformed';

serveMalformed({});
