// Reading a file the user picked, in the renderer (no Node): keys, keystores.

export function readFileText(file: File, maxBytes = 1_000_000): Promise<string> {
  if (file.size > maxBytes)
    return Promise.reject(new Error(`${file.name} is too large (${Math.round(file.size / 1024)} KB) to be a key file.`));
  return file.text();
}
