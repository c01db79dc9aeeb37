export { cityApp } from './commands.js';
