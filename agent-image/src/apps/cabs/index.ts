export { cabsApp } from './commands.js';
