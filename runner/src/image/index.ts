export { buildImage, ensureImage, chooseBaseImage, DEFAULT_IMAGE, PUBLIC_BASE } from './build-image.js';
export { OFFLINE_BASE } from './offline-base.js';
export { projectRoot } from './project-root.js';
