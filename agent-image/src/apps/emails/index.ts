export { emailsApp } from './commands.js';
