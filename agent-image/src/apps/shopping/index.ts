export { shoppingApp } from './commands.js';
