import { locationsCommand } from './_locations';

export default locationsCommand('impls', 'Implementations of the interface, abstract method or type at TARGET', {});
