import { SMTPServer } from "smtp-server";

export type ReceivedMail = { from: string; to: string[]; raw: string };

/**
 * A real SMTP server (smtp-server from npm) on 127.0.0.1 that keeps every message it is sent, so tests
 * read what nodemailer actually delivered. No TLS and no authentication: it only listens on loopback.
 */
export async function startSmtpSink() {
  const mails: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      let raw = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => {
        raw += chunk;
      });
      stream.on("end", () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw,
        });
        for (const wake of waiters.splice(0)) wake();
        callback();
      });
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve((server.server.address() as { port: number }).port));
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    /** The first message to `address`, waiting up to `timeoutMs` for it. */
    async mailTo(address: string, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = mails.find((item) => item.to.includes(address));
        if (mail) return mail;
        if (Date.now() > deadline) throw new Error(`No mail to ${address} within ${timeoutMs} ms.`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 250);
        });
      }
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The decoded text of a MIME message's parts (quoted-printable soft breaks and escapes undone). */
export function decodeMail(raw: string) {
  return raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/**
 * The sink's mail over HTTP on 127.0.0.1, for processes that did not start it (Playwright's workers read
 * what the app under test sent): `GET /mail?to=<address>` answers the first message to that address as
 * JSON ({ from, to, raw, text }), waiting up to 15 s for it, or 404.
 */
export async function serveMailbox(sink: Awaited<ReturnType<typeof startSmtpSink>>) {
  const { createServer } = await import("node:http");
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const to = url.searchParams.get("to");
    if (request.method !== "GET" || url.pathname !== "/mail" || !to) {
      response.writeHead(404).end();
      return;
    }
    try {
      const mail = await sink.mailTo(to);
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ ...mail, text: decodeMail(mail.raw) }));
    } catch (error) {
      response.writeHead(404, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: (error as Error).message }));
    }
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
