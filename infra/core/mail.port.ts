/** Outbound mail (bridge mail targets, hub mail channel). */
export type MailMessage = {
  /** RFC 5322 Message-ID, stable per delivery so receivers can deduplicate */
  messageId: string;
  from: string;
  to: string[];
  cc?: string[];
  subject: string;
  /** plain text, or HTML when `html` is set */
  text?: string;
  html?: string;
  priority?: 'high' | 'normal' | 'low';
  headers?: Record<string, string>;
};

export type MailSender = {
  /**
   * resolves when the server accepted the message (for at least one recipient: the others are in
   * `rejected`); rejects with the server's answer otherwise, as a MailSendFailure
   */
  send(message: MailMessage): Promise<{ accepted: string[]; rejected: string[]; response: string }>;
};

/**
 * What `send` rejects with (adapters normalise their client's errors to this shape). `responseCode` is the
 * SMTP reply code when the server refused (4xx: temporary, worth a retry; 5xx: permanent); it is absent
 * when no answer came (connection refused or lost, TLS failure, timeout): worth a retry too.
 */
export type MailSendFailure = Error & {
  responseCode?: number;
  /** the server's reply line */
  response?: string;
};
