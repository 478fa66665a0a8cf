/** A 512×512 PNG drawn in the browser, so an upload can be tested without a file at hand. */
export function sampleImage(name: string): Promise<File> {
  const canvas = document.createElement("canvas");
  canvas.width = 512;
  canvas.height = 512;
  const context = canvas.getContext("2d")!;
  const gradient = context.createLinearGradient(0, 0, 512, 512);
  gradient.addColorStop(0, "#4a48c4");
  gradient.addColorStop(1, "#e0a458");
  context.fillStyle = gradient;
  context.fillRect(0, 0, 512, 512);
  context.fillStyle = "#ffffff";
  context.beginPath();
  context.arc(256, 210, 96, 0, Math.PI * 2);
  context.arc(256, 520, 190, 0, Math.PI * 2);
  context.fill();
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) =>
        blob ? resolve(new File([blob], name, { type: "image/png" })) : reject(new Error("No image.")),
      "image/png",
    ),
  );
}

/** The multipart body: files the developer picked (or the sample), other fields as the card's text values. */
export async function formDataOf(
  testBody: Record<string, unknown>,
  fileFields: string[],
  files: Record<string, File | undefined>,
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(testBody)) {
    if (fileFields.includes(name)) form.append(name, files[name] ?? (await sampleImage(String(value))));
    else form.append(name, String(value));
  }
  return form;
}
