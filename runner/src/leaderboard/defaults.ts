// The leaderboard's defaults, apart so that registering the command loads nothing else.
export const DEFAULT_TITLE = 'Gaia2 leaderboard';
