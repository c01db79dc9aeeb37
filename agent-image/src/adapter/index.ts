// Adapter HTTP server: createAdapterServer({backend, token}), listen(server, port),
// daemonBackend(world) and fileBackend(statusFile) (status-only, after a daemon crash),
// readArtifacts(artifactPaths(env)) for GET /artifacts, openArtifacts(…) for its tar form, openCarry(…) for GET /carry.
export { createAdapterServer, listen, type AdapterBackend, type AdapterOptions } from './server.js';
export { MessageBuffer } from './message-buffer.js';
export { daemonBackend, fileBackend } from './backends.js';
export { artifactPaths, readArtifacts } from './artifacts.js';
export { openArtifacts } from './artifacts-tar.js';
export { openCarry, openFile as openCarriedFile } from './carry.js';
