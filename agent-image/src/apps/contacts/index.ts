export { contactsApp } from './commands.js';
