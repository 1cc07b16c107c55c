import { apiRaw, type ApiRequest } from './api';

/**
 * Saves a file the gateway serves under `path` as `fileName`: fetched with the bearer header (a
 * plain link cannot carry it), then handed to the browser as a download. The one place the app
 * saves a file, so every download behaves alike.
 */
export async function saveDownload(
  path: string,
  fileName: string,
  request: ApiRequest = {},
): Promise<void> {
  const response = await apiRaw(path, request);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking at once can cancel the download in some browsers: give it time to start.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
