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

/** A two-second 440 Hz tone as a 16-bit mono WAV, so a music upload can be tested without a file at hand. */
export function sampleWav(name: string): File {
  const rate = 22_050;
  const samples = rate * 2;
  const view = new DataView(new ArrayBuffer(44 + samples * 2));
  const text = (offset: number, value: string) => {
    for (let i = 0; i < value.length; i++) view.setUint8(offset + i, value.charCodeAt(i));
  };
  text(0, "RIFF");
  view.setUint32(4, 36 + samples * 2, true);
  text(8, "WAVEfmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, "data");
  view.setUint32(40, samples * 2, true);
  for (let i = 0; i < samples; i++) {
    view.setInt16(44 + i * 2, Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 8000), true);
  }
  return new File([view.buffer], name, { type: "audio/wav" });
}

/** The multipart body: files the developer picked (or the sample), other fields as the card's text values. */
export async function formDataOf(
  testBody: Record<string, unknown>,
  fileFields: string[],
  files: Record<string, File | undefined>,
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(testBody)) {
    if (fileFields.includes(name)) {
      const sample = String(value);
      form.append(
        name,
        files[name] ?? (sample.endsWith(".wav") ? sampleWav(sample) : await sampleImage(sample)),
      );
    } else form.append(name, String(value));
  }
  return form;
}
