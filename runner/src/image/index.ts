export { buildImage, ensureImage, chooseBaseImage, DEFAULT_IMAGE, OFFLINE_BASE } from './build-image.js';
export { projectRoot } from './project-root.js';
