// Every implemented app. To add one: export an AppDef from ./<app>/index.ts and list it here.
import { cabsApp } from './cabs/index.js';
import { cityApp } from './city/index.js';
import { cloudDriveApp } from './cloud-drive/index.js';
import { calendarApp } from './calendar/index.js';
import { contactsApp } from './contacts/index.js';
import { emailsApp } from './emails/index.js';
import { messagesApp } from './messages/index.js';
import { chatsApp } from './chats/index.js';
import type { AppDef } from './framework/types.js';
import { rentAFlatApp } from './rent-a-flat/index.js';
import { shoppingApp } from './shopping/index.js';

export const APPS: AppDef[] = [calendarApp, contactsApp, emailsApp, messagesApp, chatsApp, rentAFlatApp, shoppingApp, cabsApp, cityApp, cloudDriveApp];

export const appForCli = (cli: string): AppDef | undefined => APPS.find((a) => a.cli === cli);

/** The app binary a command line calls: a full path (/usr/local/bin/calendar) names the same one. */
export const cliName = (argv: readonly string[]): string => (argv[0] ?? '').split('/').pop() ?? '';
