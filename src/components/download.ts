/** Saves a Blob under `fileName` through a blob URL let go right after (no token ever sits in a URL). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // the click has started the download; the next task may free the memory
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Saves text the browser built as a file. */
export function downloadText(fileName: string, text: string, type = 'text/plain;charset=utf-8'): void {
  saveBlob(new Blob([text], { type }), fileName);
}
