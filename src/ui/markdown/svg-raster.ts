/**
 * Draws an export's sanitized SVG (a diagram or a plot) as a PNG for PDF and DOCX.
 * It runs in the page because workers cannot decode SVG images; the SVG has no
 * external references or foreignObject (the static renderer refuses those), so the
 * canvas stays readable.
 */
export async function rasterizeSvg(
  svg: string,
  size: { width: number; height: number; scale: number },
): Promise<Uint8Array> {
  const width = Math.max(1, Math.round(size.width * size.scale));
  const height = Math.max(1, Math.round(size.height * size.scale));
  // Mermaid writes width="100%": the image needs the size it is drawn at, or it decodes at 300×150.
  const sized = svg.replace(/<svg\b([^>]*)>/i, (_tag, attributes: string) => {
    const rest = attributes.replace(/\s(?:width|height)\s*=\s*("[^"]*"|'[^']*')/gi, '');
    return `<svg${rest} width="${size.width}" height="${size.height}">`;
  });
  const url = URL.createObjectURL(new Blob([sized], { type: 'image/svg+xml' }));
  try {
    const image = new Image(width, height);
    image.src = url;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('The page cannot draw images.');
    context.drawImage(image, 0, 0, width, height);
    const png = await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob(
        (blob) => (blob ? resolve(blob) : reject(new Error('The image could not be encoded.'))),
        'image/png',
      ),
    );
    return new Uint8Array(await png.arrayBuffer());
  } finally {
    URL.revokeObjectURL(url);
  }
}
