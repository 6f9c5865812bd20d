/** A fake server whose command's edit inserts a line "fixed" at the top, so every apply changes the file. */
import { fixByCommand, serve } from './base';

serve({ command: (uri, connection) => fixByCommand(uri, connection, true) });
