export { cloudDriveApp } from './commands.js';
