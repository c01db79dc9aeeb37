// Every implemented app. To add one: export an AppDef from ./<app>/index.ts and list it here.
import type { AppDef } from './framework/types.js';

export const APPS: AppDef[] = [];

export const appForCli = (cli: string): AppDef | undefined => APPS.find((a) => a.cli === cli);
