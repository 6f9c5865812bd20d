import { locationsCommand } from './_locations';

export default locationsCommand('refs', 'References to the symbol at TARGET', {
  'include-declaration': { type: 'boolean', description: 'Also list the declaration itself' },
});
