/** The fake server with no misbehaviour (base.ts), for the client's own tests (a batch, edits by command). */
import { serve } from './base';

serve();
