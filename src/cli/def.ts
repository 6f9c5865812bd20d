import { locationsCommand } from './_locations';

export default locationsCommand('def', 'Where the symbol at TARGET is defined', {});
