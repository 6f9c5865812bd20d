import { locationsCommand } from './_locations';

export default locationsCommand('typedef', 'Where the type of the symbol at TARGET is defined', {});
