export { rentAFlatApp } from './commands.js';
