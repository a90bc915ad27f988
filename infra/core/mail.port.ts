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
  /** resolves when the server accepted the message; rejects with the server's answer otherwise */
  send(message: MailMessage): Promise<{ accepted: string[]; rejected: string[]; response: string }>;
};
