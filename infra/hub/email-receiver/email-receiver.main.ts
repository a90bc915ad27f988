import path from 'node:path';
import { ConfigError, loadConfig } from '../../core/config.ts';
import { createSmtpMailSender, smtpMailOptions } from '../../net/smtp-mail.ts';
import { startEmailReceiver } from './email-receiver.app.ts';

/**
 * `platform hub-email-receiver`: the reference EMAIL receiver as its own process. Configuration
 * (environment): RECEIVER_PORT (8090), RECEIVER_HOST (0.0.0.0), RECEIVER_PATH (/notify), RECEIVER_DATA_DIR
 * (DATA_DIR/hub-email-receiver), RECEIVER_SIGNING_SECRET (the delivery service's whsec_ secret; several
 * space-separated during a rotation), RECEIVER_ISSUER (verify the platform tenant token; unset: not
 * checked), RECEIVER_HUB_URL (receipts go to <url><CallbackPath>; unset: to each submission's
 * CallbackUrl), and the platform's SMTP_* variables. Stops on SIGTERM/SIGINT after the work in hand.
 */
export async function runEmailReceiver(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const problems: string[] = [];
  const config = loadConfig(env);
  const mailOptions = smtpMailOptions(config.smtp);
  if (mailOptions === undefined) problems.push('SMTP_HOST must be set: the receiver sends through SMTP');
  const port = Number(env.RECEIVER_PORT ?? 8090);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    problems.push(`RECEIVER_PORT must be a port number, got "${env.RECEIVER_PORT}"`);
  const secrets = (env.RECEIVER_SIGNING_SECRET ?? '').split(/\s+/).filter((s) => s !== '');
  if (problems.length > 0) throw new ConfigError(problems);
  const mail = createSmtpMailSender(mailOptions!);
  const receiver = await startEmailReceiver({
    file: path.join(env.RECEIVER_DATA_DIR || path.join(config.dataDir, 'hub-email-receiver'), 'inbox.sqlite'),
    mail,
    from: config.smtp.from,
    signingSecrets: secrets,
    ...(env.RECEIVER_ISSUER && { issuer: env.RECEIVER_ISSUER }),
    ...(env.RECEIVER_HUB_URL && { hubUrl: env.RECEIVER_HUB_URL }),
    ...(env.RECEIVER_PATH && { path: env.RECEIVER_PATH }),
    port,
    host: env.RECEIVER_HOST || '0.0.0.0',
    log: {
      info: (o, m) => console.log(JSON.stringify({ ...o, msg: m })),
      warn: (o, m) => console.error(JSON.stringify({ ...o, msg: m })),
    },
  });
  if (secrets.length === 0) console.error('warning: RECEIVER_SIGNING_SECRET is not set: submissions are not verified');
  console.log(
    `hub email receiver listening on ${receiver.url} (point a REST_WEBHOOK delivery service's Settings.Url here)`,
  );
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  await receiver.close();
  mail.close();
  return 0;
}
