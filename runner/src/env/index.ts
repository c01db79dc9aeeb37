export { loadDotenv, parseDotenv, BLOCKED_DOTENV_KEYS, type DotenvLoadResult } from './dotenv.js';
export { keyLookupVars, keyExportVars, lookupProviderKey } from './providers.js';
export { detectProfile, type ImageProfile } from './profiles.js';
export { buildBaseEnv, rewriteLoopback, HOST_GATEWAY_ALIAS, CA_BUNDLE_PATH, CA_ENV_VARS, type ContainerEnvBase } from './container-env.js';
export { loadEnvForCli } from './cli-env.js';
