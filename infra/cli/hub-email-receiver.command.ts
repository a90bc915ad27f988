import { type CliCommand, parse } from './cli-kit.ts';

// The notification hub's reference EMAIL receiver (infra/hub/email-receiver), run as a CLI command.

/** `platform hub-email-receiver` */
export const hubEmailReceiverCommand: CliCommand = {
  name: 'hub-email-receiver',
  summary: "the notification hub's reference EMAIL receiver, as its own process",
  usage: ['hub-email-receiver'],
  description: `Runs the reference EMAIL receiver: REST_WEBHOOK submissions in, mail out through SMTP, receipts back
to the hub. Configuration (environment): RECEIVER_PORT (8090), RECEIVER_HOST (0.0.0.0), RECEIVER_PATH
(/notify), RECEIVER_DATA_DIR (DATA_DIR/hub-email-receiver), RECEIVER_SIGNING_SECRET (the delivery
service's whsec_ secret; several space-separated during a rotation), RECEIVER_ISSUER, RECEIVER_HUB_URL,
and the platform's SMTP_* variables. Stops on SIGTERM/SIGINT after the work in hand.`,
  examples: ['SMTP_HOST=mail.internal RECEIVER_SIGNING_SECRET=whsec_… platform hub-email-receiver'],
  closedOutput: 'ignore',
  async run(args, io) {
    parse(args, {}, { command: 'hub-email-receiver' });
    const { runEmailReceiver } = await import('../hub/email-receiver/email-receiver.main.ts');
    return runEmailReceiver(io.env);
  },
};
