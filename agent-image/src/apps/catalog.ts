// Every implemented app. To add one: export an AppDef from ./<app>/index.ts and list it here.
import { calendarApp } from './calendar/index.js';
import { contactsApp } from './contacts/index.js';
import type { AppDef } from './framework/types.js';

export const APPS: AppDef[] = [calendarApp, contactsApp];

export const appForCli = (cli: string): AppDef | undefined => APPS.find((a) => a.cli === cli);
