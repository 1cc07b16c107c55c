/**
 * A size limit or file size as messages show it: "512 KB" below a megabyte, else megabytes to
 * one decimal ("50 MB", "1.5 MB"). One wording for every "must be N or smaller" the servers say.
 */
export function readableSize(bytes: number): string {
  return bytes < 1024 * 1024
    ? `${Math.round(bytes / 1024)} KB`
    : `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}
