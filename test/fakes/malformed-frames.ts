/** Every answer of the wrong shape, each after a frame whose body is not JSON (malformed.ts). */
import { serveMalformed } from './malformed';

serveMalformed({ garbageFrame: true });
