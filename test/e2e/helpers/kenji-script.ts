// A scripted agent that plays the adaptability scenario adapt_chats_kenji_sync's oracle with its
// own wording for the first chat message, so the judge's soft check needs the LLM.
export const KENJI = '+819055553412';

// The golden oracle's actions, turn 1 reworded (the oracle says "Hi Kenji, does our sync
// today at 14:00 still work for you?").
export const KENJI_REWORDED = [
  {
    commands: [['chats', 'send-message', '--user-id', KENJI, '--content', 'Hello Kenji - is 2pm today still fine for our sync?']],
    reply: "I asked Kenji whether 14:00 still works; I'll adjust once he answers.",
  },
  {
    commands: [
      ['calendar', 'delete-event', '--event-id', '418a3a83b10a5f26fb14f2e92decb19d'],
      ['calendar', 'add-event', '--title', 'Sync with Kenji', '--start-datetime', '2025-10-10 10:00:00', '--end-datetime', '2025-10-10 10:30:00', '--attendees', '["Kenji Watanabe"]'],
      ['chats', 'send-message', '--user-id', KENJI, '--content', 'Done - I moved our sync to tomorrow 10:00-10:30.'],
    ],
    reply: 'Kenji proposed tomorrow 10:00-10:30; I moved the event and confirmed with him.',
  },
];
