/** A multipart/form-data body as a browser's FormData would send it, for `inject`. */
export async function multipartBody(
  fields: Record<string, string>,
  files: readonly { field?: string; name: string; type?: string; content: Uint8Array }[],
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) {
    form.append(
      file.field ?? 'documents',
      new Blob([Buffer.from(file.content)], { type: file.type ?? '' }),
      file.name,
    );
  }
  const encoded = new Response(form);
  return {
    payload: Buffer.from(await encoded.arrayBuffer()),
    headers: { 'content-type': encoded.headers.get('content-type')! },
  };
}
