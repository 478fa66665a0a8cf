import { signInAsDemo } from "@/test/support/auth";

async function main() {
  const server = "http://127.0.0.1:3611";
  const { accessToken } = await signInAsDemo(server);
  const brandId = process.argv[2];
  const h = { authorization: `Bearer ${accessToken}`, "content-type": "application/json" };
  const r = await fetch(`${server}/api/video/jobs`, {
    method: "POST",
    headers: h,
    body: JSON.stringify({
      brandId,
      mode: "regular",
      script:
        "Fresh beans, roasted every single morning in our own café. Come in, say hi, and taste the difference.",
    }),
  });
  console.log(r.status, Object.fromEntries(r.headers), await r.text());
  const loc = r.headers.get("location");
  for (let i = 0; i < 30 && loc; i++) {
    const s = await fetch(server + loc, { headers: h });
    const b = await s.json();
    console.log(s.status, b.status, b.progress, b.estimatedSeconds, b.videoUrl, b.error);
    if (["succeeded", "failed", "canceled"].includes(b.status)) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
}
main();
