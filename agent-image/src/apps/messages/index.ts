// `messages`: MessagingAppV2 in NAME mode (opaque user ids mapped to names).
import { messagingApp } from '../messaging/commands.js';

export const messagesApp = messagingApp('messages', { stateName: 'Messages', rawIdsInTitles: false }, 'Messages: conversations with your contacts.');
