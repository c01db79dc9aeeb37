/** Bad configuration or flags: exit code 2, nothing launched. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
