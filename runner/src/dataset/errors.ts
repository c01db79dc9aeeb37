/** Bad dataset input (file, row, manifest, Hub answer): exit code 2, nothing launched. */
export class DatasetError extends Error {
  override name = 'DatasetError';
}
