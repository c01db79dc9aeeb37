export { calendarApp } from './commands.js';
