#!/usr/bin/env node
// npm start's mail catcher (`npm run mail`): MailDev, catching the gateway's password-reset mail
// on SMTP 127.0.0.1:1025 and showing it on http://127.0.0.1:8025, where only its own page may
// read it. MailDev's command line answers `Access-Control-Allow-Origin` for any origin, with
// credentials, so any page a developer visited could read reset links from /api/email. Its API
// server takes a CORS setting the command line does not expose: here it is set to none, and every
// request (Socket.IO too) must name MailDev's own host and, when it has an Origin, its own origin,
// which also stops a rebound DNS name from reading it as if it were the same site.
//   MAIL_SMTP_PORT, MAIL_WEB_PORT: other ports (the tests use free ones), from the environment or
//   the repository's .env, as the gateway reads its settings (its SMTP_PORT must follow).
import { APIServer } from '@maildev/api';
import { MailDev } from 'maildev';
import { existsSync } from 'node:fs';

const dotEnv = new URL('../.env', import.meta.url);
if (existsSync(dotEnv)) process.loadEnvFile(dotEnv); // what is already set wins

const ip = '127.0.0.1';
const smtp = Number(process.env.MAIL_SMTP_PORT ?? 1025);
const web = Number(process.env.MAIL_WEB_PORT ?? 8025);
const hosts = new Set([`127.0.0.1:${web}`, `localhost:${web}`]);
const origins = new Set([...hosts].map((host) => `http://${host}`));

/** MailDev's own page (or a tool on this machine without an Origin), never another site. */
const fromOwnPage = (headers) =>
  hosts.has(headers.host ?? '') && (!headers.origin || origins.has(headers.origin));
const REFUSED = 'Only the mail catcher’s own page at http://127.0.0.1:' + web + ' reads mail.';

const registerPlugins = APIServer.prototype.registerPlugins;
APIServer.prototype.registerPlugins = async function registerOwnPageOnly() {
  this.options.cors = { origin: false, credentials: false };
  await registerPlugins.call(this);
  this.app.addHook('onRequest', async (request, reply) => {
    if (!fromOwnPage(request.headers)) return reply.status(403).send({ detail: REFUSED });
  });
  // Socket.IO answers before Fastify's hooks, and WebSockets know no CORS.
  if (this.io)
    this.io.engine.opts.allowRequest = (req, done) => done(null, fromOwnPage(req.headers));
};

const maildev = new MailDev({ smtp, ip, web, webIp: ip });
await maildev.start();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => void maildev.stop().finally(() => process.exit(0)));
}
