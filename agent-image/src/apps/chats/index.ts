// `chats`: MessagingAppV2 in PHONE_NUMBER mode (user ids are phone numbers).
import { messagingApp } from '../messaging/commands.js';

export const chatsApp = messagingApp('chats', { stateName: 'Chats', rawIdsInTitles: true }, 'Chats: chat conversations by phone number.');
