/**
 * Notifications: a tenant's outgoing webhooks (Standard Webhooks signatures, a Slack-compatible
 * option) and email over SMTP, recorded as deliveries and sent by jobs with retries. The door other libraries use.
 */
export { emitEvent, type DeliveryQueue, type EventToEmit } from './emit';
export { deliverOnce, type DeliveryOutcome, type AttemptContext } from './deliver';
export { NOTIFICATION_FORMATS, WEBHOOK_EVENTS, WEBHOOK_FORMATS, WebhookEventSchema, bodyFor, emailBody, eventText, type EventData, type NotificationFormat, type WebhookEvent, type WebhookFormat } from './events';
export { NotifyError } from './errors';
export { MIN_SECRET_BYTES, expiryWarningSeconds, privateTargetsAllowed, webhookAttempts, webhookTimeoutMs } from './limits';
export { checkSecret, newSecret, sealSecret, unsealSecret } from './secret';
export { secretBytes, signedHeaders } from './sign';
export { isPrivateAddress, parseWebhookUrl } from './target';
export { sendOnce, type AttemptResult } from './send';
export { checkEndpointSettings, type CheckedEndpoint } from './endpoint-settings';
export { MAX_RECIPIENTS, checkEmailSettings, parseRecipients, recipientsOf, smtpForSend, smtpFromEnv, type CheckedEmailEndpoint, type EmailSettingsInput, type ResolvedSmtp } from './smtp-settings';
export { sendMailOnce, type MailMessage } from './mail';
