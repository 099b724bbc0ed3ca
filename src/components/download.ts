/** Saves text the browser built as a file, through a Blob URL that is let go right after. */
export function downloadText(fileName: string, text: string, type = 'text/plain;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
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
