/**
 * A fake server whose command fixes every .fake file beside the file, in two
 * workspace/applyEdit requests (half the files each), and keeps no log.
 */
import { readdirSync } from 'node:fs';
import { ApplyWorkspaceEditRequest } from 'vscode-languageserver-protocol/node';
import { fixFirstWords, serve } from './base';

serve({
  command: async (uri, connection) => {
    const dir = decodeURIComponent(new URL(uri).pathname).replace(/[^/]+$/, '');
    const uris = readdirSync(dir)
      .filter((f) => f.endsWith('.fake'))
      .sort()
      .map((f) => `file://${dir}${f}`);
    const half = Math.ceil(uris.length / 2);
    await connection.sendRequest(ApplyWorkspaceEditRequest.type, { edit: fixFirstWords(uris.slice(0, half)) });
    await connection.sendRequest(ApplyWorkspaceEditRequest.type, { edit: fixFirstWords(uris.slice(half)) });
  },
});
